package io.quarkiverse.cable.runtime.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.frontend.ClientAddress;
import io.quarkiverse.cable.spi.Failure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP publish endpoint, wire-compatible with AnyCable's HTTP broadcaster: {@code POST} a JSON body
 * ({@link BroadcastBody}) with {@code Authorization: Bearer <secret>}; answered {@code 201 Created} (what the gem
 * expects) once every broadcast of the body is committed, exactly as a {@code Cable.broadcast} stage completes.
 * <p>
 * Failures answer like the Java API's: {@code 400} for an invalid body, stream or payload (nothing of the body is
 * broadcast), {@code 413} for a body or batch over its bound (nothing is broadcast), {@code 422} for a command other than
 * {@code disconnect},
 * {@code 429} to an address past its wrong secrets ({@link WrongSecrets}),
 * {@code 503} when the writer's queue is full or the cable stopped, {@code 504} when a commit's outcome is unknown,
 * {@code 500} when a broadcast was not stored. A batch is not atomic: on a 5xx, the broadcasts before the failing one
 * may have been delivered (the publisher retries the whole batch, as the gem does, and may deliver those twice).
 */
@Singleton
public class HttpBroadcasts {

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    CableRuntimeConfig config;

    @Inject
    CableHttpBroadcastConfig http;

    @Inject
    CableIdentities identities;

    private byte[] secret;
    private long maxBodySize;
    private int maxBatchLength;
    private int maxChannelLength;
    private long maxPayloadSize;
    private WrongSecrets wrongSecrets;
    private String throttle;

    @PostConstruct
    void read() {
        // HttpBroadcastRecorder.validate refused an enabled endpoint without a secret when the cable was built.
        secret = http.secret().orElseThrow().getBytes(StandardCharsets.UTF_8);
        maxBodySize = http.maxBodySize().asLongValue();
        maxBatchLength = http.maxBatchLength();
        maxChannelLength = config.maxChannelLength();
        maxPayloadSize = config.maxPayloadSize().asLongValue();
        wrongSecrets = new WrongSecrets(http.maxWrongSecrets(), http.wrongSecretWindow(), WrongSecrets.MAX_ADDRESSES);
        throttle = http.maxWrongSecrets() + " wrong secrets in " + http.wrongSecretWindow().toSeconds()
                + " s (quarkus.cable.http-broadcast.max-wrong-secrets, wrong-secret-window)";
    }

    void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.method() != HttpMethod.POST) {
            context.response().putHeader(HttpHeaders.ALLOW, "POST");
            answer(context, 405, "Broadcasts are POSTed");
            return;
        }
        String address = ClientAddress.key(request.remoteAddress());
        long now = System.nanoTime();
        long throttled = wrongSecrets.throttledFor(address, now);
        if (throttled > 0) {
            // Not compared, not even the right secret: a guesser learns nothing until the window ends.
            long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(throttled + TimeUnit.SECONDS.toNanos(1) - 1));
            engine.refused(CableStats.Refusal.WRONG_SECRETS, "HTTP broadcast from " + address
                    + " refused with 429: " + throttle);
            context.response().putHeader("Retry-After", Long.toString(seconds));
            answer(context, 429, "Too many wrong secrets from this address: retry in " + seconds + " s");
            return;
        }
        int authorization = authorize(request.getHeader(HttpHeaders.AUTHORIZATION));
        if (authorization == 403) {
            wrongSecrets.wrong(address, now);
        }
        if (authorization != 0) {
            context.response().putHeader("WWW-Authenticate", "Bearer");
            refuse(context, authorization, authorization == 401 ? "A bearer secret is required"
                    : "The bearer secret is wrong");
            return;
        }
        Buffer already = context.body() == null ? null : context.body().buffer();
        if (already != null) {
            // Another route's body handler read the body first.
            body(context, already);
            return;
        }
        String declared = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared != null && parseLong(declared) > maxBodySize) {
            refuse(context, 413, "The body is " + declared + " bytes, over quarkus.cable.http-broadcast.max-body-size ("
                    + maxBodySize + " bytes)");
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] over = new boolean[1];
        request.handler(chunk -> {
            if (over[0]) {
                return;
            }
            if (body.length() + chunk.length() > maxBodySize) {
                over[0] = true;
                refuse(context, 413, "The body is over quarkus.cable.http-broadcast.max-body-size (" + maxBodySize
                        + " bytes)");
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(failure -> {
            if (!context.response().ended()) {
                context.response().setStatusCode(400).end();
            }
        });
        request.endHandler(ignored -> {
            if (!over[0]) {
                body(context, body);
            }
        });
        request.resume();
    }

    private void body(RoutingContext context, Buffer body) {
        if (body.length() > maxBodySize) {
            refuse(context, 413, "The body is " + body.length()
                    + " bytes, over quarkus.cable.http-broadcast.max-body-size (" + maxBodySize + " bytes)");
            return;
        }
        List<BroadcastBody.Item> items;
        try {
            items = BroadcastBody.parse(body, maxBatchLength, maxChannelLength, maxPayloadSize);
        } catch (BroadcastBody.Refused refused) {
            refuse(context, refused.status, refused.getMessage());
            return;
        }
        // In body order, from this one thread: the writer keeps that order per channel.
        CompletableFuture<?>[] stages = new CompletableFuture<?>[items.size()];
        for (int i = 0; i < stages.length; i++) {
            stages[i] = switch (items.get(i)) {
                case BroadcastBody.Broadcast broadcast -> engine.withoutTransaction().excluding(broadcast.excludeSocket())
                        .broadcast(broadcast.stream(), broadcast.data()).toCompletableFuture();
                case BroadcastBody.Disconnect disconnect -> identities
                        .disconnect(disconnect.identifiers(), disconnect.reconnect()).toCompletableFuture();
            };
        }
        Context vertx = Vertx.currentContext();
        CompletableFuture.allOf(stages).whenComplete((ignored, failure) -> {
            Runnable reply = () -> {
                if (failure == null) {
                    answer(context, 201, null);
                } else {
                    Throwable cause = firstFailure(stages);
                    answer(context, status(cause), cause.getMessage());
                }
            };
            if (vertx != null) {
                vertx.runOnContext(v -> reply.run());
            } else {
                reply.run();
            }
        });
    }

    /** 0 when the request carries the secret; 401 without a bearer credential; 403 with another one. */
    private int authorize(String header) {
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return 401;
        }
        byte[] presented = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(presented, secret) ? 0 : 403;
    }

    /** How long, and for how many bytes, a body refused as too large is still read (and dropped) before closing. */
    private static final long LINGER_MILLIS = 2_000;

    private void refuse(RoutingContext context, int status, String message) {
        engine.recordFailure(Failure.INVALID, "http", "HTTP broadcast refused with " + status + ": " + message);
        answer(context, status, message);
        HttpServerRequest request = context.request();
        if (status == 413 && !request.isEnded()) {
            lingeringClose(context, request);
        }
    }

    /**
     * Closes the connection of a body refused before it was all read, once the client stopped sending. Closing while
     * its bytes still arrive would reset the connection, and the client could lose the 413 with it (it would see the
     * connection drop instead): the rest is read and dropped, at most {@code max-body-size} more bytes and for at
     * most {@link #LINGER_MILLIS}, so nothing is held and a client that keeps sending is still cut off.
     */
    private void lingeringClose(RoutingContext context, HttpServerRequest request) {
        long[] dropped = { 0 };
        Runnable close = () -> {
            if (!context.response().closed()) {
                context.response().close();
            }
        };
        long timer = context.vertx().setTimer(LINGER_MILLIS, ignored -> close.run());
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > maxBodySize) {
                context.vertx().cancelTimer(timer);
                close.run();
            }
        });
        request.endHandler(ignored -> {
            context.vertx().cancelTimer(timer);
            close.run();
        });
        request.resume();
    }

    private static void answer(RoutingContext context, int status, String message) {
        if (context.response().ended() || context.response().closed()) {
            return;
        }
        context.response().setStatusCode(status);
        if (message == null) {
            context.response().end();
        } else {
            context.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8").end(message);
        }
    }

    private static Throwable firstFailure(CompletableFuture<?>[] stages) {
        for (CompletableFuture<?> stage : stages) {
            if (stage.isCompletedExceptionally()) {
                try {
                    stage.join();
                } catch (CompletionException e) {
                    return e.getCause() == null ? e : e.getCause();
                } catch (RuntimeException e) {
                    return e;
                }
            }
        }
        return new IllegalStateException("a broadcast failed");
    }

    static int status(Throwable failure) {
        return switch (failure) {
            case CableException.InvalidMessage invalid -> 400;
            case CableException.QueueFull full -> 503;
            case CableException.Stopped stopped -> 503;
            case CableException.CommitUnknown unknown -> 504;
            default -> 500;
        };
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
