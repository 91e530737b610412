package io.quarkiverse.cable;

/**
 * Decides whether a stream may start: a {@link StreamFrom} stream, a stream started with {@link CableStreams}, or a
 * {@link CableEventStream} (Server-Sent Events). Declare one CDI bean implementing it; the cable asks it once per
 * stream, with the channel already resolved (a {@code @StreamFrom("room:{room}")} template filled from the path) and
 * the identity Quarkus Security gave the request.
 * <p>
 * Without such a bean every stream starts: <strong>authorizing streams is the application's job</strong>, the cable
 * knows nothing of who may read a channel. A refused stream never receives anything:
 * <ul>
 * <li>{@code @StreamFrom}: the WebSocket is closed with 1008 (policy violation), reason {@code cable: stream
 * refused};</li>
 * <li>{@link CableStreams#start}: its {@code Uni} fails with {@link CableException.Forbidden}; the connection stays
 * open;</li>
 * <li>{@link CableEventStream}: the response is 403 Forbidden, before any event.</li>
 * </ul>
 * A bean that throws refuses the stream (the failure is logged, rate-limited).
 */
@FunctionalInterface
public interface StreamAuthorization {

    /**
     * True when {@code request}'s stream may start. It may block where it runs:
     * <ul>
     * <li>{@code @StreamFrom}: on a virtual thread, during the WebSocket upgrade, before the endpoint opens, so an
     * allowed stream is live when {@code @OnOpen} runs, as without a bean;</li>
     * <li>{@link CableStreams#start}: on a virtual thread; the {@code Uni} completes on the caller's context;</li>
     * <li>{@link CableEventStream}: on the thread that calls it, because the 403 must be decided before the endpoint
     * returns its stream. Annotate an SSE endpoint whose decision blocks {@code @RunOnVirtualThread} (or
     * {@code @Blocking}); on the event loop the bean must not block.</li>
     * </ul>
     */
    boolean allows(StreamRequest request);
}
