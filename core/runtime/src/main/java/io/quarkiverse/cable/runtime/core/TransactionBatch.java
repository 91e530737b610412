package io.quarkiverse.cable.runtime.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.Transaction;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.StoreException;
import io.quarkiverse.cable.spi.TransactionStore;

/**
 * The broadcasts of one transaction, written when it commits.
 * <p>
 * Registered as a plain synchronization at the first broadcast. Its {@link #beforeCompletion()} registers an
 * interposed one, which the transaction manager calls after every other synchronization, Hibernate's flush included:
 * so the writers' lock is taken last and held only from there to the commit, never while the application's own
 * statements run (a transaction holding the lock never waits for an application row lock).
 * <p>
 * When the transaction holds a connection of the cable's datasource, the broadcasts are inserted on it and commit
 * with the application's data. Otherwise (a transaction on another datasource, or no database work at all) they are
 * handed to the writer after the commit: never before it, nothing on rollback, but not atomic with it.
 */
final class TransactionBatch implements Synchronization {

    private static final Logger LOG = Logger.getLogger(TransactionBatch.class);

    private enum Outcome {
        PENDING,
        WRITTEN,
        AFTER_COMMIT,
        FAILED
    }

    private final TransactionalBroadcasts owner;
    private final Transaction transaction;
    private final List<OutgoingMessage> messages = new ArrayList<>();
    private final List<CompletableFuture<Void>> stages = new ArrayList<>();
    /** Set when the transaction starts completing: later broadcasts no longer join it. */
    private boolean closed;
    private boolean interposed;
    private volatile Outcome outcome = Outcome.PENDING;
    private volatile Throwable writeFailure;

    TransactionBatch(TransactionalBroadcasts owner, Transaction transaction) {
        this.owner = owner;
        this.transaction = transaction;
    }

    /** Adds a broadcast; null when the transaction is already completing (the caller then broadcasts at once). */
    synchronized CompletableFuture<Void> add(OutgoingMessage message) {
        if (closed) {
            return null;
        }
        if (messages.size() >= owner.maxPerTransaction()) {
            // Checked at the call, like an invalid broadcast: the transaction must not commit without it.
            TransactionalBroadcasts.rollBackOnly(transaction);
            throw CableException.QueueFull.transactionLimit(owner.maxPerTransaction());
        }
        TransactionStage<Void> stage = new TransactionStage<>(owner.transactions(), transaction);
        messages.add(message);
        stages.add(stage);
        return stage;
    }

    @Override
    public void beforeCompletion() {
        if (!interposed) {
            interposed = true;
            try {
                owner.registry().registerInterposedSynchronization(new Synchronization() {
                    @Override
                    public void beforeCompletion() {
                        write();
                    }

                    @Override
                    public void afterCompletion(int status) {
                        // The plain synchronization completes the stages.
                    }
                });
                return;
            } catch (IllegalStateException e) {
                LOG.debugf("Cable could not register an interposed synchronization (%s); writing now", e.getMessage());
            }
        }
        write();
    }

    private void write() {
        List<OutgoingMessage> batch;
        synchronized (this) {
            closed = true;
            batch = List.copyOf(messages);
        }
        if (batch.isEmpty()) {
            return;
        }
        TransactionStore store = owner.store();
        try {
            if (store != null && store.joined()) {
                store.write(batch);
                outcome = Outcome.WRITTEN;
            } else {
                outcome = Outcome.AFTER_COMMIT;
            }
        } catch (StoreException | RuntimeException e) {
            outcome = Outcome.FAILED;
            // The store's own failure (a database's SQLException), not the SPI's wrapper of it.
            Throwable failure = e instanceof StoreException stored ? stored.getCause() : e;
            writeFailure = failure;
            // Thrown from beforeCompletion, this rolls the transaction back: a broadcast that cannot be stored
            // takes the transaction's data with it, as if one of its own statements had failed.
            throw new CableException.StorageFailed("Cable could not store " + batch.size()
                    + " broadcasts in the transaction; it rolls back: " + failure.getMessage(), failure);
        }
    }

    @Override
    public void afterCompletion(int status) {
        List<OutgoingMessage> batch;
        List<CompletableFuture<Void>> futures;
        synchronized (this) {
            closed = true;
            batch = List.copyOf(messages);
            futures = List.copyOf(stages);
        }
        if (batch.isEmpty()) {
            return;
        }
        Outcome written = outcome;
        if (status == Status.STATUS_COMMITTED) {
            if (written == Outcome.WRITTEN) {
                owner.committedInTransaction(batch.size());
                owner.store().committed(batch.size());
                complete(futures, null);
            } else {
                owner.sendAfterCommit(batch, futures);
            }
        } else if (status == Status.STATUS_ROLLEDBACK) {
            complete(futures, new CableException.RolledBack(batch.size(), writeFailure));
        } else {
            complete(futures, written == Outcome.WRITTEN
                    ? new CableException.CommitUnknown("The outcome of the transaction holding " + batch.size()
                            + " broadcasts is unknown (JTA status " + status + "); they are delivered if it committed",
                            null)
                    : new CableException.RolledBack(batch.size(), null));
        }
    }

    /** Completion runs on a fresh virtual thread so callers' continuations never run in the transaction manager. */
    private static void complete(List<CompletableFuture<Void>> futures, Throwable failure) {
        CableThreads.startVirtual("cable-transaction-completed", () -> futures.forEach(future -> {
            if (failure == null) {
                future.complete(null);
            } else {
                future.completeExceptionally(failure);
            }
        }));
    }
}
