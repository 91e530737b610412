package io.quarkiverse.cable.bench.loadgen;

import io.quarkiverse.cable.bench.loadgen.ActionCableClient.CableException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;

/**
 * A k6 virtual user: its number ({@code __VU}), its iteration count ({@code __ITER}), the connection it holds and the
 * sleep it may be in. Everything it does runs on its event-loop {@link #context()}, so it needs no locking; at the
 * hard stop, {@link #interrupt()} ends whatever it is waiting for.
 */
final class VirtualUser {

    private final int id;
    private final Context context;
    private final Vertx vertx;
    private int iteration;
    private ActionCableClient connection;
    /** A second connection of the iteration (the cross-node steady's sender on the other node), or null. */
    private ActionCableClient second;
    private Promise<Void> sleeping;
    private long sleepTimer;
    private boolean interrupted;

    VirtualUser(int id, Context context) {
        this.id = id;
        this.context = context;
        this.vertx = context.owner();
    }

    int id() {
        return id;
    }

    int iteration() {
        return iteration;
    }

    Context context() {
        return context;
    }

    boolean interrupted() {
        return interrupted;
    }

    /** A new connection, not yet opened; it becomes the one {@link #interrupt()} and {@link #endIteration()} close. */
    ActionCableClient newConnection(WebSocketClient client) {
        connection = new ActionCableClient(vertx, client);
        if (interrupted) {
            connection.close();
        }
        return connection;
    }

    /** A second connection for this iteration, closed with the first. */
    ActionCableClient newSecondConnection(WebSocketClient client) {
        second = new ActionCableClient(vertx, client);
        if (interrupted) {
            second.close();
        }
        return second;
    }

    /** k6's {@code sleep}. */
    Future<Void> sleep(long millis) {
        if (interrupted) {
            return Future.failedFuture(new CableException("interrupted"));
        }
        Promise<Void> promise = Promise.promise();
        sleeping = promise;
        sleepTimer = vertx.setTimer(Math.max(1, millis), id -> {
            sleeping = null;
            promise.complete();
        });
        return promise.future();
    }

    /** The iteration is over: like k6, close what it left open, and count it. */
    void endIteration() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
        if (second != null) {
            second.close();
            second = null;
        }
        iteration++;
    }

    void interrupt() {
        interrupted = true;
        if (connection != null) {
            connection.close();
        }
        if (second != null) {
            second.close();
        }
        if (sleeping != null) {
            vertx.cancelTimer(sleepTimer);
            Promise<Void> promise = sleeping;
            sleeping = null;
            promise.fail(new CableException("interrupted"));
        }
    }
}
