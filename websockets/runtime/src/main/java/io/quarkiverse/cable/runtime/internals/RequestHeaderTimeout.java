package io.quarkiverse.cable.runtime.internals;

import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;

/**
 * Closes a TCP connection that has not sent its first request's headers within
 * {@code quarkus.cable.websocket.upgrade-timeout}: a client that connects and sends part of an upgrade request, or
 * nothing, would otherwise hold the connection for {@code quarkus.http.idle-timeout} (30 minutes by default).
 * <p>
 * Vert.x has no bound for the header phase alone, only idle timeouts for a connection's whole life. So the servers'
 * idle timeout is this bound at first (Vert.x closes a connection that read and wrote nothing for so long, in its
 * {@code idle} handler, Netty's {@code IdleStateHandler}), and the first request's headers lift it: a filter, the first
 * thing the router runs for every request, puts back an idle handler with the server's own idle timeout. An idle
 * WebSocket (it went through the filter as its upgrade request) and a slow request body (its headers did) keep the
 * server's idle timeout. Not the read idle timeout: while Vert.x tells HTTP/1 from HTTP/2 without TLS (h2c, on by
 * default in Quarkus), and in its h2c upgrade handler after that, only the idle timeout closes a connection.
 * <p>
 * The bound is on silence, not on the whole header phase: Netty's idle timer restarts with each read, so a client
 * trickling its headers a byte at a time within the bound is held back by the server's header size limit at that
 * pace, not closed by this; Vert.x offers no hook at a connection's start that would allow a deadline for the whole
 * phase. The pipeline's handler is Vert.x internal ({@code ConnectionBase}), as for {@link SharedFrameWriter}; a
 * connection of another kind keeps the short bound (it is closed once idle for that long).
 */
@Singleton
public class RequestHeaderTimeout implements HttpServerOptionsCustomizer {

    /** Vert.x's name for its idle handler in a connection's pipeline. */
    private static final String IDLE_HANDLER = "idle";
    /** Before the router's own filters (CORS, security): a refusal there still lifts the bound. */
    private static final int FIRST = Integer.MAX_VALUE;

    private long timeoutMillis;
    /** The bound as the servers' idle handlers carry it (rounded to the servers' idle timeout unit): their marker. */
    private volatile long headerIdleMillis;
    /** The server's own idle timeout (quarkus.http.idle-timeout), put back once the headers are read; 0 for none. */
    private volatile long serverIdleMillis = -1;

    @Inject
    void configure(CableRuntimeConfig config) {
        timeoutMillis = config.websocket().upgradeTimeout().toMillis();
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        boundHeaderPhase(options);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        boundHeaderPhase(options);
    }

    private void boundHeaderPhase(HttpServerOptions options) {
        TimeUnit unit = options.getIdleTimeoutUnit();
        long serverIdle = unit.toMillis(options.getIdleTimeout());
        if (timeoutMillis <= 0 || (serverIdle > 0 && serverIdle <= timeoutMillis) || options.getReadIdleTimeout() > 0
                || options.getWriteIdleTimeout() > 0) {
            return; // off, or the server's own timeouts are as short (or set in ways this would have to undo)
        }
        // At least one unit: 0 would turn the bound off.
        long headerIdle = Math.max(1, unit.convert(timeoutMillis, TimeUnit.MILLISECONDS));
        options.setIdleTimeout((int) headerIdle);
        headerIdleMillis = unit.toMillis(headerIdle);
        serverIdleMillis = serverIdle;
    }

    void register(@Observes Filters filters) {
        if (timeoutMillis > 0) {
            filters.register(this::headersRead, FIRST);
        }
    }

    private void headersRead(RoutingContext context) {
        long serverIdle = serverIdleMillis;
        if (serverIdle >= 0 && context.request().connection() instanceof ConnectionBase base) {
            ChannelPipeline pipeline = base.channel().pipeline();
            // Only the first request of a connection finds the header bound; later ones find the server's own.
            if (pipeline.get(IDLE_HANDLER) instanceof IdleStateHandler handler
                    && handler.getAllIdleTimeInMillis() == headerIdleMillis) {
                if (serverIdle > 0) {
                    pipeline.replace(handler, IDLE_HANDLER, new IdleStateHandler(0, 0, serverIdle,
                            TimeUnit.MILLISECONDS));
                } else {
                    pipeline.remove(handler);
                }
            }
        }
        context.next();
    }
}
