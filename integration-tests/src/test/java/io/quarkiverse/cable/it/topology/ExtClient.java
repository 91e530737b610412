package io.quarkiverse.cable.it.topology;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.vertx.core.json.JsonObject;

/**
 * A client of the extended Action Cable protocol ({@code actioncable-v1-ext-json}), in Java: subscribes to one chat
 * room, optionally asking for the history after a stream position, and records every frame. What {@code @anycable/core}
 * does on a reconnection, reduced to what the topology cases check: positions, payloads, reject/confirm_history.
 */
final class ExtClient implements AutoCloseable {

    /** A broadcast as the client received it, and when (System.nanoTime). */
    record Received(String epoch, long offset, String payload, long nanos) {
    }

    final List<Received> messages = new CopyOnWriteArrayList<>();
    final List<String> types = new CopyOnWriteArrayList<>();
    private WebSocket socket;

    static ExtClient subscribe(int port, String room, String epoch, long offset) throws Exception {
        ExtClient client = new ExtClient();
        client.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                .subprotocols("actioncable-v1-ext-json")
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/cable"), client.new Recorder())
                .get(30, TimeUnit.SECONDS);
        String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
        JsonObject subscribe = new JsonObject().put("command", "subscribe").put("identifier", identifier);
        if (epoch != null) {
            subscribe.put("history", new JsonObject().put("streams", new JsonObject().put("chat:" + room,
                    new JsonObject().put("epoch", epoch).put("offset", offset))));
        }
        client.socket.sendText(subscribe.encode(), true).get(30, TimeUnit.SECONDS);
        return client;
    }

    boolean saw(String type) {
        return types.contains(type);
    }

    Received last() {
        return messages.isEmpty() ? null : messages.get(messages.size() - 1);
    }

    @Override
    public void close() {
        socket.abort();
    }

    private final class Recorder implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                JsonObject frame = new JsonObject(partial.toString());
                partial.setLength(0);
                if (frame.containsKey("offset")) {
                    Object message = frame.getValue("message");
                    String payload = message instanceof JsonObject json ? json.getString("m") : String.valueOf(message);
                    messages.add(new Received(frame.getString("epoch"), frame.getLong("offset"), payload,
                            System.nanoTime()));
                } else if (frame.getString("type") != null && !"ping".equals(frame.getString("type"))) {
                    types.add(frame.getString("type"));
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}
