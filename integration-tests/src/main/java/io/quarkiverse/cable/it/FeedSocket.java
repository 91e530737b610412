package io.quarkiverse.cable.it;

import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamCallback;
import io.quarkiverse.cable.it.typed.CelsiusJson.Reading;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * Streams chosen by the client at run time: {@code start:<channel>}, {@code stop:<channel>}, and
 * {@code shout:<channel>} (a stream with a callback that upper-cases each message and names the thread it ran on),
 * {@code where:<channel>} (starts a stream and names the thread its confirmation reached this endpoint on),
 * {@code typed:<channel>} (a typed callback: each payload decoded to a {@link Reading}, answered as a line),
 * {@code dropped:<channel>} (starts a stream and drops the returned {@code Uni}: it still starts),
 * {@code others:<channel>} (broadcasts {@code from <connection id>} to the channel's other subscribers).
 */
@WebSocket(path = "/feed")
public class FeedSocket {

    /** What the {@code json} stream's callback returns: sent as its JSON. */
    public record Relayed(String channel, String text) {
    }

    @Inject
    CableStreams streams;

    @Inject
    Cable cable;

    @OnTextMessage
    Uni<String> command(String command, WebSocketConnection connection) {
        int colon = command.indexOf(':');
        String verb = colon < 0 ? command : command.substring(0, colon);
        String channel = colon < 0 ? "" : command.substring(colon + 1);
        return (switch (verb) {
            case "start" -> streams.start(connection, channel)
                    .replaceWith("started:" + channel);
            case "shout" -> streams.start(connection, channel,
                    (message, target) -> message.text().toUpperCase() + "|" + Thread.currentThread().isVirtual() + "|"
                            + Thread.currentThread().getName())
                    .replaceWith("started:" + channel);
            case "json" -> streams.start(connection, channel,
                    (message, target) -> new Relayed(message.channel(), message.text()))
                    .replaceWith("started:" + channel);
            case "where" -> streams.start(connection, channel)
                    .map(ignored -> "confirmed-on:" + Thread.currentThread().getName());
            case "typed" -> streams.start(connection, channel, StreamCallback.typed(Reading.class,
                    (reading, target) -> reading.sensor() + "=" + reading.temperature().degrees()))
                    .replaceWith("started:" + channel);
            case "dropped" -> {
                streams.start(connection, channel); // the Uni is dropped on purpose: the stream starts at the call
                yield streams.confirmed(connection).replaceWith("started:" + channel);
            }
            case "others" -> Uni.createFrom()
                    .completionStage(cable.excluding(connection.id()).broadcast(channel, "from " + connection.id()))
                    .replaceWith("sent:" + channel);
            case "stop" -> {
                streams.stop(connection, channel);
                yield Uni.createFrom().item("stopped:" + channel);
            }
            default -> Uni.createFrom().item("unknown command: " + verb);
        })
                // As websockets.adoc's FeedSocket: a refused channel is answered, not logged by WebSockets Next at
                // ERROR with a stack trace per frame; the cable logs the refusal, rate-limited and escaped.
                .onFailure(CableException.class).recoverWithItem(refused -> "refused:" + channel);
    }
}
