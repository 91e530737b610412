package io.quarkiverse.cable.runtime.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.TransactionStore;

/**
 * Makes a broadcast made inside an active JTA transaction part of that transaction (see {@link TransactionBatch}).
 * One per cable; present only when the application has a transaction manager and
 * {@code quarkus.cable.transactional} is true (decided at build time).
 */
final class TransactionalBroadcasts {

    private static final Logger LOG = Logger.getLogger("io.quarkiverse.cable");

    private final TransactionManager transactions;
    private final TransactionSynchronizationRegistry registry;
    private final TransactionStore store;
    private final Function<OutgoingMessage, CompletableFuture<Void>> sender;
    private final CableStats stats;
    private final int maxPerTransaction;
    /** This cable's key among the transaction's resources. */
    private final Object key = new Object();
    private final AtomicBoolean notJoinedLogged = new AtomicBoolean();

    /**
     * @param store where joined broadcasts are written, or null (memory adapter): then they are sent after commit
     * @param sender the transport's ordinary send, used after commit when the transaction did not use the datasource
     */
    public TransactionalBroadcasts(TransactionManager transactions, TransactionSynchronizationRegistry registry,
            TransactionStore store, Function<OutgoingMessage, CompletableFuture<Void>> sender, CableStats stats,
            int maxPerTransaction) {
        this.transactions = transactions;
        this.registry = registry;
        this.store = store;
        this.sender = sender;
        this.stats = stats;
        this.maxPerTransaction = maxPerTransaction;
    }

    /**
     * Adds the broadcast to the transaction active on this thread and returns its stage, completed after the commit;
     * or null when there is none (or it is already completing): the caller then broadcasts at once.
     */
    public CompletableFuture<Void> join(OutgoingMessage message) {
        Transaction transaction;
        int status;
        try {
            transaction = transactions.getTransaction();
            if (transaction == null) {
                return null;
            }
            status = transaction.getStatus();
        } catch (SystemException e) {
            return null;
        }
        if (status == Status.STATUS_MARKED_ROLLBACK) {
            return CompletableFuture.failedFuture(new CableException.RolledBack(1, null));
        }
        if (status != Status.STATUS_ACTIVE) {
            return null;
        }
        TransactionBatch batch = (TransactionBatch) registry.getResource(key);
        if (batch == null) {
            batch = new TransactionBatch(this, transaction);
            try {
                transaction.registerSynchronization(batch);
            } catch (RollbackException e) {
                return CompletableFuture.failedFuture(new CableException.RolledBack(1, null));
            } catch (SystemException | IllegalStateException e) {
                return null;
            }
            registry.putResource(key, batch);
        }
        return batch.add(message);
    }

    /**
     * When a transaction is active on this thread, a broadcast it would have joined was refused: marks the transaction
     * rollback-only and throws {@code failure}, so the transaction cannot commit its data without the broadcast
     * (even when the caller catches the exception). Returns normally when there is no such transaction.
     */
    public void refuseInTransaction(CableException failure) {
        Transaction transaction;
        try {
            transaction = transactions.getTransaction();
            if (transaction == null) {
                return;
            }
            int status = transaction.getStatus();
            if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
                return;
            }
        } catch (SystemException e) {
            return;
        }
        rollBackOnly(transaction);
        throw failure;
    }

    static void rollBackOnly(Transaction transaction) {
        try {
            transaction.setRollbackOnly();
        } catch (SystemException | IllegalStateException e) {
            // Already completing: the refusal thrown to the caller still tells it.
            LOG.debugf("Cable could not mark the transaction rollback-only: %s", e.getMessage());
        }
    }

    /** The transaction did not write on the cable's datasource: its broadcasts go through the writer now. */
    void sendAfterCommit(List<OutgoingMessage> messages, List<CompletableFuture<Void>> stages) {
        stats.sentAfterCommit(messages.size());
        if (store != null && notJoinedLogged.compareAndSet(false, true)) {
            LOG.warn("A transaction that broadcast did not use the cable's datasource (it used another datasource, or"
                    + " none): its broadcasts are sent after its commit, not atomically with it. A crash between that"
                    + " commit and the cable's write loses them (logged once, each one counted)");
        }
        for (int i = 0; i < messages.size(); i++) {
            CompletableFuture<Void> stage = stages.get(i);
            sender.apply(messages.get(i)).whenComplete((ignored, failure) -> {
                if (failure == null) {
                    stage.complete(null);
                } else {
                    stage.completeExceptionally(failure);
                }
            });
        }
    }

    void committedInTransaction(int rows) {
        stats.committedInTransaction(rows);
    }

    TransactionManager transactions() {
        return transactions;
    }

    TransactionSynchronizationRegistry registry() {
        return registry;
    }

    TransactionStore store() {
        return store;
    }

    int maxPerTransaction() {
        return maxPerTransaction;
    }
}
