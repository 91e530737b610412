package io.quarkiverse.cable;

import jakarta.ws.rs.sse.OutboundSseEvent;

import io.smallrye.mutiny.Multi;

/**
 * Streams a channel to a browser's {@code EventSource} as Server-Sent Events, with exact resume. Inject it
 * ({@code @Inject CableEventStream streams;}, present when the application has a JAX-RS implementation such as Quarkus
 * REST) and return a stream from an endpoint:
 *
 * <pre>
 * &#64;GET
 * &#64;Path("/events/{room}")
 * &#64;Produces(MediaType.SERVER_SENT_EVENTS)
 * public Multi&lt;OutboundSseEvent&gt; events(&#64;RestPath String room, &#64;RestHeader("Last-Event-ID") String lastEventId) {
 *     return streams.stream("chat:" + room, lastEventId);
 * }
 * </pre>
 *
 * Every broadcast becomes an unnamed event (the {@code message} event of {@code EventSource}) whose data is the
 * payload (text; binary payloads in base64) and whose {@code id} is its stream position, {@code <epoch>:<offset>}.
 * When the browser reconnects on its own, it sends the last id as {@code Last-Event-ID}, and the stream first replays
 * exactly what was committed after it, then goes live, with no gap or duplicate.
 * <ul>
 * <li>A fresh stream (no {@code Last-Event-ID}) starts with a {@value #SUBSCRIBED} event whose id is the channel's
 * position at that moment ({@code 0} when the channel has no message yet), so a reconnect before the first broadcast
 * resumes exactly too.</li>
 * <li>When the history after {@code Last-Event-ID} is not all there any more (trimmed, epoch changed, too many missed,
 * unknown id), the stream sends one {@value #HISTORY_LOST} event, whose data is the reason in lower case
 * ({@code trimmed}, {@code epoch_changed}, {@code offset_beyond_newest}, {@code unknown_stream}, {@code too_large},
 * {@code invalid_id}, {@code error}, or {@code busy} / {@code connection_limit} when the node
 * reads as many histories as it admits), replays nothing, and continues live: the page should reload its state. Its
 * {@code id} is the channel's position where live delivery starts, so a reconnect after the reload resumes exactly;
 * only {@code error}, {@code busy} and {@code connection_limit} have none (the client's own id is still the one to
 * retry with).</li>
 * <li>A stream with more than {@code quarkus.cable.sse.max-pending-bytes} of events waiting for its client, or with
 * events waiting and none written for {@code quarkus.cable.websocket.stall-timeout}, is closed as too slow (its
 * connection is reset); the browser reconnects with {@code Last-Event-ID} and resumes exactly.</li>
 * <li>Every stream ends after at most {@code quarkus.cable.sse.max-stream-duration} (2 minutes by default) as a
 * complete response; the browser reconnects with {@code Last-Event-ID} and resumes exactly, and a client that vanished
 * without closing, which does not come back, is let go (its presence leaves a TTL later).</li>
 * </ul>
 */
public interface CableEventStream {

    /** The name of the first event of a fresh stream; its id is the channel's position. */
    String SUBSCRIBED = "cable-subscribed";

    /** The name of the event that says the missed messages cannot be replayed. */
    String HISTORY_LOST = "cable-history-lost";

    /**
     * The name of the events that carry a presence set's changes to a stream in that set
     * ({@link #streamWithPresence}): data {@code {"type":"join","id":"42","info":{...}}} or
     * {@code {"type":"leave","id":"42"}}, as Action Cable clients get them, or {@code {"type":"error"}} when the
     * stream's own join failed. They carry no id, so they never move the browser's {@code Last-Event-ID}.
     */
    String PRESENCE = "cable-presence";

    /**
     * The events of {@code channel}, resuming after {@code lastEventId} when it is not null or blank. Cancelling the
     * stream (the browser went away) ends the subscription; a client too slow to take the events ends the stream.
     */
    Multi<OutboundSseEvent> stream(String channel, String lastEventId);

    /**
     * The events of {@code channel} for a page that rendered its data with a page cursor
     * ({@link StreamPosition#cursor}, passed back by the page, e.g. {@code new EventSource("/events/42?cursor=" + c)}):
     * the stream starts right after the cursor, so nothing committed after the render is missed and nothing before
     * it is sent. The browser's own {@code Last-Event-ID} (sent when it reconnects) is newer and wins.
     */
    /**
     * Like {@link #stream(String, String)}, and the stream is a member of {@code channel}'s presence set (see
     * {@link CablePresence}) as {@code presenceId}, with {@code info} (any value Vert.x JSON encodes, or null), for
     * as long as it lasts: it joins once it is live, and when it ends (the browser went away) its membership lasts
     * {@code quarkus.cable.presence.ttl} more, so an {@code EventSource} that reconnects within it is never seen to
     * leave. Ids are deduplicated across streams, connections and nodes as for every presence set. The stream also
     * receives the set's joins and leaves from then on, its own join included, as {@value #PRESENCE} events (at most
     * once: they are not replayed after a reconnect; read {@link CablePresence#snapshot} for the state).
     *
     * @throws jakarta.ws.rs.BadRequestException when {@code presenceId} is empty or over 255 characters, or
     *         {@code info} is larger than {@code quarkus.cable.presence.max-info-size} as JSON: the request is
     *         answered 400 before anything streams or joins
     * @throws NullPointerException when {@code presenceId} is null
     */
    Multi<OutboundSseEvent> streamWithPresence(String channel, String lastEventId, String presenceId, Object info);

    default Multi<OutboundSseEvent> stream(String channel, String lastEventId, String cursor) {
        boolean resuming = lastEventId != null && !lastEventId.isBlank();
        return stream(channel, resuming ? lastEventId : cursor);
    }
}
