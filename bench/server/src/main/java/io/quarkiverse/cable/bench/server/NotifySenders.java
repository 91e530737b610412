package io.quarkiverse.cable.bench.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import javax.sql.DataSource;

/**
 * A fixed set of plain JDBC connections that send {@code pg_notify}. A publisher borrows one for one statement, so
 * NOTIFY never waits behind the cable's or anyone else's pool. A connection that failed is reopened by its next user.
 * A notification is sent again only when the server had ended the session (a restart, {@code pg_terminate_backend}):
 * its transaction was then aborted, so it was certainly not delivered; after any other failure it may have been.
 */
final class NotifySenders implements AutoCloseable {

    private final DataSource dataSource;
    private final BlockingQueue<Sender> idle;

    /** Opens every connection now: a wrong URL fails startup, and the first publishes do not pay for connecting. */
    NotifySenders(DataSource dataSource, int size) throws SQLException {
        this.dataSource = dataSource;
        this.idle = new ArrayBlockingQueue<>(size);
        try {
            for (int i = 0; i < size; i++) {
                Sender sender = new Sender();
                sender.open();
                idle.add(sender);
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** Sends one notification and returns once PostgreSQL has it (autocommit: NOTIFY is delivered at commit). */
    void send(String channel, String payload) throws SQLException, InterruptedException {
        Sender sender = idle.take();
        try {
            sender.send(channel, payload);
        } finally {
            idle.add(sender);
        }
    }

    @Override
    public void close() {
        idle.forEach(Sender::close);
    }

    private final class Sender {

        private Connection connection;
        private PreparedStatement notify;

        void open() throws SQLException {
            connection = dataSource.getConnection();
            notify = connection.prepareStatement("SELECT pg_notify(?, ?)");
        }

        void send(String channel, String payload) throws SQLException {
            try {
                execute(channel, payload);
            } catch (SQLException e) {
                close();
                if (!endedByServer(e)) {
                    throw e;
                }
                try {
                    execute(channel, payload);
                } catch (SQLException again) {
                    close();
                    throw again;
                }
            }
        }

        private void execute(String channel, String payload) throws SQLException {
            if (connection == null) {
                open();
            }
            notify.setString(1, channel);
            notify.setString(2, payload);
            notify.executeQuery().close();
        }

        /** SQLSTATE class 57P: admin_shutdown, crash_shutdown, cannot_connect_now, database_dropped. */
        private static boolean endedByServer(SQLException e) {
            return e.getSQLState() != null && e.getSQLState().startsWith("57P");
        }

        void close() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // Closing a broken connection: nothing left to release.
                }
                connection = null;
                notify = null;
            }
        }
    }
}
