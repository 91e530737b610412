package io.quarkiverse.cable.runtime.sse;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Delivery;
import io.quarkiverse.cable.runtime.core.LocalSubscription;
import io.quarkiverse.cable.runtime.core.RecoveryOutcome;
import io.quarkiverse.cable.runtime.core.ReplayLease;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.Replay;
import io.smallrye.mutiny.Multi;

/** The implementation of {@link CableEventStream}: a recovering subscription whose delivery emits events. */
final class EventStreams {

    private EventStreams() {
    }

    /**
     * {@code member}: who the stream is in the channel's presence set, or null for a stream without presence. Refused
     * before anything is sent: 403 (reserved channel, authorization), 401 (expired credentials), 429 (the client has
     * {@code sse.max-streams-per-client} streams open).
     */
    static Multi<OutboundSseEvent> stream(CableEngine engine, SseSettings settings, StreamsPerClient clients,
            String channel, String lastEventId, SsePresence.Member member) {
        // Taken now, on the request's thread: how to close this stream's connection when its client stops reading.
        Runnable closeConnection = ConnectionCloser.forCurrentRequest();
        SseAuthorization.checkReserved(channel);
        io.quarkiverse.cable.runtime.frontend.StreamAuthorizer authorizer = SseAuthorization.active();
        if (authorizer != null) {
            // Refused: thrown here, before Quarkus REST has the stream, so the answer is 403 and nothing subscribed.
            SseAuthorization.check(authorizer, channel);
        }
        Instant expiresAt = SseAuthorization.expiry();
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            // Answered 401, not an empty stream: an EventSource reconnects after an ended stream, with the same
            // expired credentials, but gives up on a 401 and lets the page refresh them.
            throw new NotAuthorizedException(Response.status(Response.Status.UNAUTHORIZED)
                    .entity("credentials expired").build());
        }
        // Last, once nothing else refuses the request: a request refused otherwise takes no place.
        Runnable place = clients.admit(engine);
        SseStream stream = new SseStream(engine, settings, channel, lastEventId, closeConnection, expiresAt, member,
                place);
        return Multi.createFrom().publisher(stream.outbox);
    }

    /**
     * One stream: its bounded outbox, and the cable subscription started when Quarkus REST subscribes. A stream that
     * falls more than {@code sse.max-pending-bytes} behind, or stalls for {@code websocket.stall-timeout}, is a slow
     * consumer: its subscription ends and its connection is closed (reset), so what it held is freed at once.
     */
    private static final class SseStream implements SseOutbox.Lifecycle {
        private final CableEngine engine;
        private final SseSettings settings;
        private final String channel;
        private final String lastEventId;
        private final Runnable closeConnection;
        /** When the request's credentials expire, or null: the stream ends there, and the client asks again. */
        private final Instant expiresAt;
        private final SsePresence.Member member;
        /** Gives the client's place back ({@link StreamsPerClient}); run whenever the stream ends, once. */
        private final Runnable place;
        final SseOutbox outbox;
        private volatile LocalSubscription subscription;
        private volatile StreamWatch.Watched watched;
        private volatile SsePresence presence;

        SseStream(CableEngine engine, SseSettings settings, String channel, String lastEventId,
                Runnable closeConnection, Instant expiresAt, SsePresence.Member member, Runnable place) {
            this.expiresAt = expiresAt;
            this.place = place;
            this.member = member;
            this.engine = engine;
            this.settings = settings;
            this.channel = channel;
            this.lastEventId = lastEventId;
            this.closeConnection = closeConnection;
            this.outbox = new SseOutbox(settings, this);
        }

        @Override
        public void started(SseOutbox self) {
            HistoryRequest parsed = parse(lastEventId);
            boolean fresh = parsed == null;
            boolean invalid = parsed == INVALID;
            HistoryRequest request = fresh || invalid ? new HistoryRequest.PositionOnly() : parsed;
            int limit = engine.subscriberBuffer();
            Delivery delivery = new Delivery() {
                @Override
                public boolean offer(CableMessage message) {
                    return offerOrEnd(SharedEvents.of(message));
                }

                @Override
                public void discard() {
                }

                @Override
                public int limit() {
                    return limit;
                }
            };
            LocalSubscription started;
            try {
                started = engine.subscribe(channel, delivery, request, limit, engine.streamReplayQuota(),
                        begun -> outcome(engine, begun, outbox, fresh, invalid));
            } catch (CableException e) {
                outbox.fail(e);
                return;
            }
            subscription = started;
            watched = watch(started);
            if (member != null) {
                presence = new SsePresence(engine, channel, member, this::offerOrEnd);
                presence.start();
            }
            started.closed().whenComplete((ignored, failure) -> {
                endPresence();
                if (failure instanceof CableException.SlowConsumer) {
                    slow(failure);
                } else if (failure != null) {
                    outbox.fail(failure);
                } else {
                    outbox.complete();
                }
            });
            if (outbox.isDone()) {
                // Cancelled while the subscription was being made.
                started.close();
            }
        }

        /**
         * Watches the stream: it stalls as a slow consumer, and it ends when its credentials expire or when it has
         * lasted its share of {@code sse.max-stream-duration}, whichever comes first. Ended, the response completes
         * (nothing is logged, nothing failed); the EventSource reconnects with Last-Event-ID, is authenticated again,
         * misses nothing, and its presence, handed to the TTL meanwhile, never leaves. A client that vanished does not
         * come back, and leaves.
         */
        private StreamWatch.Watched watch(LocalSubscription started) {
            long now = System.nanoTime();
            long lifetime = settings.streamLifetimeNanos(ThreadLocalRandom.current());
            long credentialsLeft = expiresAt == null ? Long.MAX_VALUE
                    : Duration.between(Instant.now(), expiresAt).toNanos();
            long endsAt = 0;
            Runnable onEnd = null;
            if (lifetime > 0 && lifetime < credentialsLeft) {
                endsAt = now + lifetime;
                onEnd = () -> {
                    engine.stats().sseMaxDurationEnd();
                    started.close();
                };
            } else if (expiresAt != null) {
                endsAt = now + credentialsLeft;
                onEnd = started::close;
            }
            return StreamWatch.watch(outbox, () -> stalled(started), endsAt, onEnd);
        }

        private void stalled(LocalSubscription started) {
            CableException.SlowConsumer reason = new CableException.SlowConsumer(channel, "no SSE event written for "
                    + settings.stallTimeoutNanos() / 1_000_000 + " ms (quarkus.cable.websocket.stall-timeout)");
            if (started.isOpen()) {
                started.end(reason);
            } else {
                // Ended already (its time was up), and the client does not take the end's last events either.
                slow(reason);
            }
        }

        private void slow(Throwable failure) {
            engine.stats().sseSlowConsumer();
            if (closeConnection == null) {
                outbox.fail(failure);
                return;
            }
            // Reset rather than end: a client that does not read would never take the end of the response either.
            // Abandoned, the outbox is not cancelled when the reset reaches Quarkus REST: the place goes back here.
            outbox.abandon();
            place.run();
            closeConnection.run();
        }

        /**
         * Queues {@code event}; over the stream's byte bound the subscription ends as a slow consumer. False only
         * while the subscription is not yet known here: then it ends itself as one.
         */
        private boolean offerOrEnd(TextEvent event) {
            if (outbox.offer(event)) {
                return true;
            }
            LocalSubscription own = subscription;
            if (own == null) {
                return false;
            }
            own.end(new CableException.SlowConsumer(channel, "more than " + settings.maxPendingBytes()
                    + " bytes of SSE events waiting (quarkus.cable.sse.max-pending-bytes)"));
            return true;
        }

        private void endPresence() {
            SsePresence member = presence;
            if (member != null) {
                member.end();
            }
        }

        @Override
        public void cancelled() {
            place.run();
            StreamWatch.Watched watching = watched;
            if (watching != null) {
                StreamWatch.unwatch(watching);
            }
            LocalSubscription started = subscription;
            if (started != null) {
                started.close();
            }
            endPresence();
        }
    }

    private static RecoveryOutcome outcome(CableEngine engine, LocalSubscription subscription, SseOutbox outbox,
            boolean fresh, boolean invalid) {
        return new RecoveryOutcome() {
            @Override
            public void replayed(Replay replay) {
                replayed(replay, ReplayLease.NONE);
            }

            @Override
            public void replayed(Replay replay, ReplayLease lease) {
                // The replay is handed over from the shared list, not copied into the stream's queue; its share of
                // the node's replay budget goes back event by event as Quarkus REST takes them.
                outbox.replay(replay.messages(), lease);
                if (invalid) {
                    outbox.offer(lost("invalid_id", replay.position()));
                } else if (fresh) {
                    outbox.offer(new TextEvent(CableEventStream.SUBSCRIBED, id(replay.position()), "{}"));
                }
                release();
            }

            @Override
            public void unavailable(CableException.HistoryUnavailable reason) {
                // Like invalid_id, the event carries the channel's position at the starting line: live delivery
                // continues from there, so a client that reloaded its state resumes correctly from this id (or from
                // the id of the last live message it got). Without it, EventSource would resend the refused id on
                // its next reconnect and be told "history lost" again. A replay refused for load (busy, connection
                // limit) carries none: the client's own id is still the one to retry with, and reading the position
                // would be the very read that was refused.
                String resumeId = refusedForLoad(reason) ? null : startingId(engine, subscription);
                outbox.offer(new TextEvent(CableEventStream.HISTORY_LOST, resumeId,
                        reason.reason().name().toLowerCase(Locale.ROOT)));
                release();
            }

            @Override
            public void failed(Exception failure) {
                // No id: the history could not be read (the database failed), so the client's own Last-Event-ID is
                // still the right one to retry with.
                outbox.offer(lost("error", null));
                release();
            }

            private void release() {
                if (subscription.goLive(List.of(), () -> {
                })) {
                    subscription.confirm();
                }
            }
        };
    }

    private static boolean refusedForLoad(CableException.HistoryUnavailable reason) {
        return reason.reason() == CableException.HistoryUnavailable.Reason.BUSY
                || reason.reason() == CableException.HistoryUnavailable.Reason.CONNECTION_LIMIT;
    }

    /**
     * The id of the channel's position at the subscription's starting line ({@code 0} when it has no message yet),
     * or null when that cannot be read: then the event carries no id.
     */
    private static String startingId(CableEngine engine, LocalSubscription subscription) {
        try {
            return id(engine.transport().history().replay(subscription.channel(), subscription.channelHash(),
                    new HistoryRequest.PositionOnly(), subscription.startingLine()).position());
        } catch (Exception e) {
            return null;
        }
    }

    /** A lost-history event; it carries the position to resume from when it is known. */
    private static TextEvent lost(String reason, StreamPosition position) {
        return new TextEvent(CableEventStream.HISTORY_LOST, position == null ? null : id(position), reason);
    }

    /** {@code <epoch>:<offset>}, or {@code 0} when the channel has no message yet. */
    private static String id(StreamPosition position) {
        return position == null ? "0" : position.epoch() + ":" + position.offset();
    }

    private static final HistoryRequest INVALID = new HistoryRequest.PositionOnly();

    /** The request a Last-Event-ID asks for: null when there is none, {@link #INVALID} when it cannot be read. */
    static HistoryRequest parse(String lastEventId) {
        if (lastEventId == null || lastEventId.isBlank()) {
            return null;
        }
        String id = lastEventId.trim();
        if (id.equals("0")) {
            return new HistoryRequest.FromStart();
        }
        int colon = id.lastIndexOf(':');
        if (colon <= 0) {
            return INVALID;
        }
        try {
            return new HistoryRequest.After(new StreamPosition(id.substring(0, colon),
                    Long.parseLong(id.substring(colon + 1))));
        } catch (IllegalArgumentException e) {
            return INVALID;
        }
    }
}
