package io.quarkiverse.cable.bench.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * One connection that LISTENs on a PostgreSQL channel and hands every notification's payload to a consumer, on a
 * thread of its own. When the connection fails it reconnects with backoff; notifications sent while it was down are
 * lost, as with Rails' PostgreSQL adapter (NOTIFY keeps nothing for absent listeners).
 */
final class NotificationListener implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NotificationListener.class);

    /** How long one wait for notifications lasts: bounds how long {@link #close()} waits for the thread. */
    private static final int WAIT_MILLIS = 500;

    private final DataSource dataSource;
    private final String channel;
    private final Consumer<String> onPayload;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean listening;

    /**
     * LISTENs before returning, so a notification sent after construction is received; fails when the first
     * connection cannot be made (a wrong URL should stop startup, not retry forever).
     */
    NotificationListener(DataSource dataSource, String channel, Consumer<String> onPayload) throws SQLException {
        this.dataSource = dataSource;
        this.channel = channel;
        this.onPayload = onPayload;
        Connection first = connectAndListen();
        this.thread = Thread.ofPlatform().name("pgnotify-listener").daemon().start(() -> run(first));
    }

    boolean listening() {
        return listening;
    }

    private Connection connectAndListen() throws SQLException {
        Connection connection = dataSource.getConnection();
        try (Statement statement = connection.createStatement()) {
            // The channel is a constant identifier of ours, never client input.
            statement.execute("LISTEN " + channel);
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        listening = true;
        return connection;
    }

    private void run(Connection first) {
        Connection connection = first;
        Backoff backoff = new Backoff();
        while (stopped.getCount() > 0) {
            try {
                if (connection == null) {
                    connection = connectAndListen();
                    LOG.infof("pgnotify relay: listening on %s again", channel);
                    backoff.reset();
                }
                receive(connection);
            } catch (SQLException e) {
                listening = false;
                closeQuietly(connection);
                connection = null;
                if (stopped.getCount() == 0) {
                    break;
                }
                Duration delay = backoff.next();
                LOG.warnf("pgnotify relay: LISTEN connection failed (%s); reconnecting in %d ms", e.getMessage(),
                        delay.toMillis());
                if (awaitStop(delay)) {
                    break;
                }
            }
        }
        listening = false;
        closeQuietly(connection);
    }

    /** Waits for notifications until stopped or the connection fails. */
    private void receive(Connection connection) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        while (stopped.getCount() > 0) {
            PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
            if (notifications != null) {
                for (PGNotification notification : notifications) {
                    deliver(notification.getParameter());
                }
            }
        }
    }

    /** A consumer that throws loses that one notification, never the listener thread. */
    private void deliver(String payload) {
        try {
            onPayload.accept(payload);
        } catch (RuntimeException e) {
            LOG.errorf(e, "pgnotify relay: could not deliver a notification on %s", channel);
        }
    }

    private boolean awaitStop(Duration duration) {
        try {
            return stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // The connection is already broken or closed.
            }
        }
    }

    /** Stops the thread and closes its connection; returns within about one wait. */
    @Override
    public void close() throws InterruptedException {
        stopped.countDown();
        thread.join(Duration.ofMillis(WAIT_MILLIS * 4L));
    }
}
