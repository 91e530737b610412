package io.quarkiverse.cable;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

/**
 * Broadcasts to, and disconnects, every session of one identity on every node: Rails' {@code broadcast_to} and
 * {@code ActionCable.server.remote_connections.where(...).disconnect}. An identity is the whole map of identifiers a
 * connection was identified with (what {@link CableIdentification#identify} returned, e.g. {@code user=42}).
 * <p>
 * Both travel through the database like any broadcast, so they reach the other nodes within one polling interval.
 */
public interface CableIdentities {

    /**
     * The reserved cable channel of an identity, {@code cable:identity:} followed by its identifiers sorted by key as
     * {@code key=value} pairs joined with {@code &} (keys and values URL-encoded), e.g. {@code cable:identity:user=42}.
     * An Action Cable channel streams it with
     * {@code subscription.streamFrom(CableIdentities.channel(subscription.connectionIdentifiers()))}; only a connection
     * of that very identity may stream it.
     */
    static String channel(Map<String, String> identifiers) {
        if (identifiers == null || identifiers.isEmpty()) {
            throw new IllegalArgumentException("An identity has at least one identifier; anonymous connections have none");
        }
        StringJoiner name = new StringJoiner("&", "cable:identity:", "");
        new TreeMap<>(identifiers).forEach((key, value) -> {
            if (key == null || value == null) {
                throw new IllegalArgumentException("Identifiers must not be null: " + identifiers);
            }
            name.add(URLEncoder.encode(key, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
        });
        return name.toString();
    }

    /**
     * Broadcasts {@code payload} (as {@link Cable#broadcast(String, Object)}) on the identity's channel: every
     * subscription streaming it, on every node, receives it once, in broadcast order.
     */
    CompletionStage<Void> broadcast(Map<String, String> identifiers, Object payload);

    /**
     * Disconnects every session of the identity on every node: Action Cable connections get
     * {@code {"type":"disconnect","reason":"remote","reconnect":reconnect}} then a close (1000). Completes when the
     * command is stored; sessions close as each node's poller reads it. Joins the caller's transaction like a broadcast.
     */
    CompletionStage<Void> disconnect(Map<String, String> identifiers, boolean reconnect);
}
