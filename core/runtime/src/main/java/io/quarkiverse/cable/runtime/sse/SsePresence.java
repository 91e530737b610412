package io.quarkiverse.cable.runtime.sse;

import java.util.Objects;
import java.util.function.Consumer;

import jakarta.ws.rs.BadRequestException;

import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.PresenceEvents;
import io.quarkiverse.cable.runtime.core.PresenceSession;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.Failure;

/**
 * An SSE stream's membership of its channel's presence set ({@code CableEventStream.streamWithPresence}): it hears
 * the set's events from its start, joins once this node reads them (so it hears its own join), and at its end hands
 * its membership to the TTL, as an Action Cable connection that closed does: an {@code EventSource} that reconnects
 * within the TTL is never seen to leave. The join and the hand-off wait for the database, so they run on virtual
 * threads of their own, never on the event loop or the poller.
 */
final class SsePresence {

    /** Who the stream is in the set, checked when the stream is asked for. */
    record Member(String presenceId, String infoJson) {
    }

    /**
     * The member {@code presenceId} with {@code info}; what every presence join refuses is a 400, thrown before
     * Quarkus REST has the stream (as a refused authorization is a 403), so nothing streams and nothing joins.
     */
    static Member member(CableEngine engine, String presenceId, Object info) {
        Objects.requireNonNull(presenceId, "presenceId");
        String infoJson = info == null ? null : engine.jsonText(info);
        String problem = engine.presence().problem(presenceId, infoJson);
        if (problem != null) {
            throw new BadRequestException("Cable presence join refused: " + problem);
        }
        return new Member(presenceId, infoJson);
    }

    private final CableEngine engine;
    private final String channel;
    private final Member member;
    /** One session per stream, never guessable (as Action Cable's session ids). */
    private final PresenceSession session;
    private final Consumer<TextEvent> send;
    private final PresenceEvents.Listener listener;

    /** {@code send} queues an event on the stream (and ends it as a slow consumer when it cannot). */
    SsePresence(CableEngine engine, String channel, Member member, Consumer<TextEvent> send) {
        this.engine = engine;
        this.channel = channel;
        this.member = member;
        this.send = send;
        this.session = engine.presence().session();
        this.listener = event -> send.accept(new TextEvent(CableEventStream.PRESENCE, null, event.eventJson()));
    }

    void start() {
        engine.presence().events().listen(channel, listener)
                .whenComplete((reading, failure) -> CableThreads.startVirtual("cable-sse-presence", this::join));
    }

    /** The stream ended: it stops hearing the set, and a joined membership is handed to the TTL. */
    void end() {
        engine.presence().events().stopListening(channel, listener);
        // Off the caller's thread (the end may wait for a join still committing); the session refuses a later join.
        CableThreads.startVirtual("cable-sse-presence", this::handOff);
    }

    private void join() {
        try {
            session.join(channel, member.presenceId(), member.infoJson());
        } catch (CableException e) {
            engine.recordFailure(Failure.STORAGE, "sse-presence", "An SSE stream could not join presence on "
                    + channel + ": " + e.getMessage());
            send.accept(new TextEvent(CableEventStream.PRESENCE, null, "{\"type\":\"error\"}"));
        }
    }

    private void handOff() {
        try {
            session.end();
        } catch (CableException e) {
            engine.recordFailure(Failure.STORAGE, "sse-presence", "An ended SSE stream's presence on "
                    + channel + " could not be handed to the TTL: " + e.getMessage());
        }
    }
}
