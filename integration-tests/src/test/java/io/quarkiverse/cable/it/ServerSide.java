package io.quarkiverse.cable.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.util.AnnotationLiteral;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocketConnection;

/**
 * What the server knows of the WebSockets Next connections on one path, for a failure message of a test that runs in
 * the application's JVM (a {@code @QuarkusTest}): open or not, the channels each streams, whether their streams are
 * confirmed, and whether the subscriber map has those channels. Empty when the application runs elsewhere.
 */
public final class ServerSide {

    private static final class InternalLiteral extends AnnotationLiteral<Internal> implements Internal {
    }

    private ServerSide() {
    }

    public static String describe(String path) {
        ArcContainer arc = Arc.container();
        if (arc == null || !arc.isRunning()) {
            return "";
        }
        try {
            OpenConnections open = arc.select(OpenConnections.class).get();
            CableStreams streams = arc.select(CableStreams.class).get();
            Map<String, Integer> subscribers = arc.select(CableEngine.class, new InternalLiteral()).get()
                    .subscribersByChannel();
            List<String> seen = new ArrayList<>();
            for (WebSocketConnection connection : open) {
                if (!connection.handshakeRequest().path().equals(path)) {
                    continue;
                }
                CompletableFuture<Void> confirmed = streams.confirmed(connection).subscribeAsCompletionStage();
                List<String> channels = new ArrayList<>();
                for (String channel : streams.channels(connection)) {
                    channels.add(channel + " (subscribers: " + subscribers.get(channel) + ")");
                }
                seen.add("connection " + connection.id() + " open=" + connection.isOpen() + " streams=" + channels
                        + " confirmed=" + (confirmed.isDone() ? (confirmed.isCompletedExceptionally() ? "failed" : "yes")
                                : "no")
                        + " ready=" + RoomSocket.READY_PROGRESS.getOrDefault(connection.id(), "not a room or no @OnOpen"));
            }
            return "; server side of " + path + ": " + (seen.isEmpty() ? "no open connection" : seen);
        } catch (RuntimeException e) {
            return "; server side unknown: " + e;
        }
    }
}
