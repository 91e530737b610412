package io.quarkiverse.cable.spi;

import java.util.List;

/**
 * Where a transaction's broadcasts are written when the transaction uses the cable's datasource: on the
 * transaction's own connection, so they commit or roll back with the application's data.
 */
public interface TransactionStore {

    /** Whether the current transaction holds a connection of the cable's datasource. */
    boolean joined() throws StoreException;

    /**
     * Writes {@code messages}, in order, on the current transaction's connection: takes the writers' lock (held until
     * the transaction ends) and inserts them.
     */
    void write(List<OutgoingMessage> messages) throws StoreException;

    /** After the transaction committed {@code rows} broadcasts: wake the local poller, feed the trimmer. */
    void committed(int rows);
}
