package io.quarkiverse.cable.runtime.core;

import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.quarkiverse.cable.spi.TransactionStore;
import io.quarkus.arc.Arc;

/** Connects a started cable to the application's transaction manager. */
final class TransactionJoining {

    private TransactionJoining() {
    }

    /**
     * How broadcasts made inside an active JTA transaction join it. On the database adapter they are stored on the
     * transaction's connection when it uses the cable's datasource; on the memory adapter (or another datasource) they
     * are sent after the commit.
     *
     * @param maxPerTransaction how many broadcasts one transaction may hold before further ones fail with
     *        {@code QueueFull}
     */
    static TransactionalBroadcasts broadcasts(CableEngine engine, int maxPerTransaction) {
        TransactionManager transactions = Arc.container().instance(TransactionManager.class).get();
        TransactionSynchronizationRegistry registry = Arc.container().instance(TransactionSynchronizationRegistry.class)
                .get();
        TransactionStore store = engine.transport().transactionStore().orElse(null);
        return new TransactionalBroadcasts(transactions, registry, store, engine::sendCarrying, engine.stats(),
                maxPerTransaction);
    }
}
