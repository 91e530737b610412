package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;

/**
 * The stage of a broadcast that joined a transaction. It completes after the commit, so a thread that blocks on it
 * inside that same transaction would wait forever: {@link #get()} and {@link #join()} refuse with an
 * {@link IllegalStateException} instead. Stages derived from it ({@code thenApply}, ...) carry the same check.
 */
final class TransactionStage<T> extends CompletableFuture<T> {

    private final TransactionManager transactions;
    private final Transaction transaction;

    TransactionStage(TransactionManager transactions, Transaction transaction) {
        this.transactions = transactions;
        this.transaction = transaction;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        refuseWaitInsideTransaction();
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        refuseWaitInsideTransaction();
        return super.get(timeout, unit);
    }

    @Override
    public T join() {
        refuseWaitInsideTransaction();
        return super.join();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new TransactionStage<>(transactions, transaction);
    }

    private void refuseWaitInsideTransaction() {
        if (isDone() || !insideTransaction()) {
            return;
        }
        throw new IllegalStateException("Waiting for a transactional broadcast inside its own transaction would"
                + " deadlock: the broadcast completes after the transaction commits. Wait after the transaction ends,"
                + " chain on the stage instead of blocking, or broadcast with cable.withoutTransaction()");
    }

    private boolean insideTransaction() {
        try {
            Transaction current = transactions.getTransaction();
            if (current == null || !current.equals(transaction)) {
                return false;
            }
            int status = current.getStatus();
            return status == Status.STATUS_ACTIVE || status == Status.STATUS_MARKED_ROLLBACK;
        } catch (SystemException e) {
            return false;
        }
    }
}
