package io.quarkiverse.cable.runtime.sse;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.frontend.ClientAddress;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.ext.web.RoutingContext;

/**
 * The SSE streams each client has open on this node, bounded by {@code sse.max-streams-per-client}: one client opening
 * hundreds of streams is one client, not hundreds. A client is its principal when the request is authenticated,
 * otherwise its remote address ({@link ClientAddress#key}). A stream takes its place before anything is sent and gives
 * it back when it ends, whatever ended it (the client, a stall, its duration, a failure, a stream Quarkus REST never
 * started).
 * <p>
 * The table holds only clients with a stream open (an entry goes at zero), so it never has more entries than there are
 * open streams.
 */
final class StreamsPerClient {

    /**
     * The Retry-After of a refusal, in seconds: a client's streams end when it closes them (a page closed or reloaded)
     * or at {@code sse.max-stream-duration}, neither of which the server can foretell; a few seconds keeps a retrying
     * client from polling in a loop.
     */
    static final int RETRY_AFTER_SECONDS = 10;

    private final int limit;
    private final ConcurrentHashMap<String, Integer> open = new ConcurrentHashMap<>();

    StreamsPerClient(int limit) {
        this.limit = limit;
    }

    /** What a stream made outside an HTTP request gives back: nothing. */
    static final Runnable NO_PLACE = () -> {
    };

    /**
     * Takes a place for the current request's client and returns how to give it back (once; later calls do nothing);
     * throws a 429 when the client has {@code limit} streams open. Outside an HTTP request there is no client, and
     * nothing is counted.
     * <p>
     * The stream gives its place back when it ends ({@link EventStreams}: cancelled by Quarkus REST when the client
     * closed, completed, failed, or reset as a slow consumer). The request's end handler gives it back too, for a
     * stream Quarkus REST never took (an endpoint that asked for one and then answered otherwise): Quarkus REST
     * replaces the response's close handling once it streams, so for a stream that started that handler may never
     * run.
     */
    Runnable admit(CableEngine engine) {
        RoutingContext request = SseAuthorization.currentRequest();
        if (request == null) {
            return NO_PLACE;
        }
        String client = client(request);
        if (!take(client)) {
            engine.refused(CableStats.Refusal.STREAMS_PER_CLIENT, "SSE stream of " + client + " refused with 429: "
                    + limit + " streams open (quarkus.cable.sse.max-streams-per-client)");
            throw new TooManyStreams(Response.status(Response.Status.TOO_MANY_REQUESTS)
                    .header("Retry-After", RETRY_AFTER_SECONDS).type(MediaType.TEXT_PLAIN_TYPE)
                    .entity("Too many event streams open from this client").build());
        }
        AtomicBoolean released = new AtomicBoolean();
        Runnable place = () -> {
            if (released.compareAndSet(false, true)) {
                release(client);
            }
        };
        request.addEndHandler(ended -> place.run());
        return place;
    }

    /** Takes a place for {@code client}; false when it has {@code limit} streams open. */
    boolean take(String client) {
        boolean[] taken = new boolean[1];
        open.compute(client, (key, count) -> {
            int streams = count == null ? 0 : count;
            if (streams >= limit) {
                return count;
            }
            taken[0] = true;
            return streams + 1;
        });
        return taken[0];
    }

    /** Gives back one of {@code client}'s places; its entry goes with its last one. */
    void release(String client) {
        open.computeIfPresent(client, (key, count) -> count <= 1 ? null : count - 1);
    }

    /** The streams {@code client} has open. */
    int open(String client) {
        return open.getOrDefault(client, 0);
    }

    /** The clients with a stream open: the table's size. */
    int clients() {
        return open.size();
    }

    /**
     * {@code user:<principal>} for an authenticated request, {@code address:<key>} otherwise; an identity that cannot
     * be resolved here (lazy authentication on the event loop, or a failure) counts as anonymous, as for authorization.
     */
    private static String client(RoutingContext request) {
        SecurityIdentity identity;
        try {
            identity = SseAuthorization.identity(request);
        } catch (RuntimeException e) {
            identity = null;
        }
        if (identity != null && !identity.isAnonymous()) {
            return "user:" + identity.getPrincipal().getName();
        }
        return "address:" + ClientAddress.key(request.request().remoteAddress());
    }

    /**
     * The refusal as Quarkus REST answers it, without a stack trace: a client past its bound may send hundreds of
     * requests at once, and each refusal's cost is the healthy clients' latency.
     */
    private static final class TooManyStreams extends WebApplicationException {

        TooManyStreams(Response response) {
            super(response);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
