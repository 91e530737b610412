package io.quarkiverse.cable;

import java.util.Set;
import java.util.concurrent.CompletionStage;

import io.quarkus.websockets.next.WebSocketConnection;

/**
 * Starts and stops cable channels on WebSocket connections at run time (Action Cable's {@code stream_from} and
 * {@code stop_stream_from}), for example from {@code @OnOpen} or {@code @OnTextMessage} handlers. Streams of a
 * connection stop by themselves when it closes. Inject it with {@code @Inject CableStreams streams}.
 */
public interface CableStreams {

    /**
     * Streams {@code channel} to {@code connection}: every broadcast on it is written to the connection as it is, encoded
     * once per node for all its connections. Completes once the stream is live (its starting line is recorded);
     * fails with {@link CableException.InvalidMessage} for a bad channel name or a closed connection (the stage fails;
     * the call does not throw, except {@link NullPointerException} for a {@code null} connection). Starting a channel
     * the connection already streams does nothing more.
     */
    CompletionStage<Void> start(WebSocketConnection connection, String channel);

    /** Like {@link #start(WebSocketConnection, String)}, but each broadcast goes through {@code callback} first. */
    CompletionStage<Void> start(WebSocketConnection connection, String channel, StreamCallback callback);

    /** Stops streaming {@code channel} to {@code connection}; nothing happens when it was not streamed. */
    void stop(WebSocketConnection connection, String channel);

    /** Stops every stream of {@code connection}. */
    void stopAll(WebSocketConnection connection);

    /** The channels streamed to {@code connection}. */
    Set<String> channels(WebSocketConnection connection);

    /** Completes when every stream started so far on {@code connection} (including {@link StreamFrom}'s) is live. */
    CompletionStage<Void> confirmed(WebSocketConnection connection);
}
