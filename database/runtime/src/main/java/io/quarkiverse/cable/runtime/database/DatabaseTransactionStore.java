package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.function.IntConsumer;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.transaction.TransactionIntegration;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.StoreException;
import io.quarkiverse.cable.spi.TransactionStore;

/**
 * The {@link TransactionStore} of the database adapter, on an Agroal datasource with JTA integration (Quarkus'
 * default, {@code quarkus.datasource.jdbc.transactions=enabled}).
 * <p>
 * Agroal keeps the connection it enlisted in a transaction associated with that transaction until it ends;
 * {@link TransactionIntegration#getTransactionAware()} returns it, or null when the transaction never borrowed a
 * connection of this datasource. Borrowing a connection inside the transaction returns that same enlisted connection.
 */
final class DatabaseTransactionStore implements TransactionStore {

    private final AgroalDataSource dataSource;
    private final TransactionIntegration integration;
    private final MessageStore store;
    private final IntConsumer afterCommit;

    public DatabaseTransactionStore(AgroalDataSource dataSource, MessageStore store, IntConsumer afterCommit) {
        this.dataSource = dataSource;
        this.integration = dataSource.getConfiguration().connectionPoolConfiguration().transactionIntegration();
        this.store = store;
        this.afterCommit = afterCommit;
    }

    @Override
    public boolean joined() throws StoreException {
        try {
            return integration.getTransactionAware() != null;
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    @Override
    public void write(List<OutgoingMessage> messages) throws StoreException {
        // The transaction's own connection: closing this handle leaves it enlisted until the transaction ends.
        try (Connection connection = dataSource.getConnection()) {
            store.writeInTransaction(connection, messages, Instant.now());
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    @Override
    public void committed(int rows) {
        afterCommit.accept(rows);
    }
}
