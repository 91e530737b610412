package io.quarkiverse.cable.runtime.sse;

import java.util.Base64;
import java.util.List;
import java.util.Locale;

import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.delivery.Delivery;
import io.quarkiverse.cable.runtime.history.HeldDelivery;
import io.quarkiverse.cable.runtime.history.HistoryRequest;
import io.quarkiverse.cable.runtime.history.Recovery;
import io.quarkiverse.cable.runtime.history.Replay;
import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;

/** The implementation of {@link CableEventStream}: a recovering subscription whose delivery emits events. */
public final class EventStreams {

    private EventStreams() {
    }

    public static Multi<OutboundSseEvent> stream(CableEngine engine, String channel, String lastEventId) {
        int limit = engine.subscriberBuffer();
        // The emitter's buffer bounds what a slow client holds: overflowing it fails the stream, which ends the
        // subscription.
        return Multi.createFrom().<OutboundSseEvent> emitter(emitter -> start(engine, channel, lastEventId, limit,
                emitter), limit + engine.historySettings().maxReplay());
    }

    private static void start(CableEngine engine, String channel, String lastEventId, int limit,
            MultiEmitter<? super OutboundSseEvent> emitter) {
        HistoryRequest parsed = parse(lastEventId);
        boolean fresh = parsed == null;
        boolean invalid = parsed == INVALID;
        HistoryRequest request = fresh || invalid ? new HistoryRequest.PositionOnly() : parsed;
        Delivery delivery = new Delivery() {
            @Override
            public boolean offer(CableMessage message) {
                emitter.emit(messageEvent(message));
                return true;
            }

            @Override
            public void discard() {
            }

            @Override
            public int limit() {
                return limit;
            }
        };
        LocalSubscription subscription;
        try {
            subscription = engine.subscribe(channel, delivery, request, limit,
                    (started, held) -> outcome(engine, started, held, emitter, fresh, invalid));
        } catch (CableException e) {
            emitter.fail(e);
            return;
        }
        emitter.onTermination(subscription::close);
        subscription.closed().whenComplete((ignored, failure) -> {
            if (failure != null) {
                emitter.fail(failure);
            } else {
                emitter.complete();
            }
        });
    }

    private static Recovery.Outcome outcome(CableEngine engine, LocalSubscription subscription, HeldDelivery held,
            MultiEmitter<? super OutboundSseEvent> emitter, boolean fresh, boolean invalid) {
        return new Recovery.Outcome() {
            @Override
            public void replayed(Replay replay) {
                release(replay.messages(), () -> {
                    if (invalid) {
                        emitter.emit(lost("invalid_id", replay.position()));
                    } else if (fresh) {
                        emitter.emit(new TextEvent(CableEventStream.SUBSCRIBED, id(replay.position()), "{}"));
                    }
                });
            }

            @Override
            public void unavailable(CableException.HistoryUnavailable reason) {
                // Like invalid_id, the event carries the channel's position at the starting line: live delivery
                // continues from there, so a client that reloaded its state resumes correctly from this id (or from
                // the id of the last live message it got). Without it, EventSource would resend the refused id on
                // its next reconnect and be told "history lost" again.
                String resumeId = startingId(engine, subscription);
                release(List.of(), () -> emitter.emit(new TextEvent(CableEventStream.HISTORY_LOST, resumeId,
                        reason.reason().name().toLowerCase(Locale.ROOT))));
            }

            @Override
            public void failed(Exception failure) {
                // No id: the history could not be read (the database failed), so the client's own Last-Event-ID is
                // still the right one to retry with.
                release(List.of(), () -> emitter.emit(lost("error", null)));
            }

            private void release(List<CableMessage> replay, Runnable beforeLive) {
                held.release(replay, beforeLive);
                subscription.confirm();
            }
        };
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

    private static TextEvent messageEvent(CableMessage message) {
        String data = message.binary() ? Base64.getEncoder().encodeToString(message.payload()) : message.text();
        return new TextEvent(null, message.epoch() + ":" + message.position(), data);
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
