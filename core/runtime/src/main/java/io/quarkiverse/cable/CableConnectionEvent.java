package io.quarkiverse.cable;

import java.util.Map;

/**
 * An Action Cable connection of this node was welcomed ({@link Opened}) or, after it was, ended ({@link Closed}):
 * Rails' {@code ApplicationCable::Connection#connect} and {@code #disconnect}, as CDI events.
 *
 * <pre>
 * void online(&#64;Observes CableConnectionEvent.Opened opened) { ... }
 * void offline(&#64;Observes CableConnectionEvent.Closed closed) { ... }
 * </pre>
 *
 * Synchronous observers run on the connection's virtual thread, so they may block, one at a time per connection and in
 * order with its commands: {@code Opened} after the welcome and before the first command is handled, {@code Closed}
 * after the channels' {@code unsubscribed} callbacks. Each welcomed connection fires one {@code Opened} and one
 * {@code Closed}, however it ends (the client, a remote disconnect, a slow consumer, an expired token, shutdown); a
 * connection that was never welcomed (unauthorized, expired credentials) fires neither. A failing observer is logged
 * and changes nothing for the connection. The events are this node's: a user's first connection on the cluster is
 * not told apart from its first one here.
 */
public sealed interface CableConnectionEvent {

    /** The connection's session id: 128 random bits, unique across nodes (the extended protocol's {@code sid}). */
    String sessionId();

    /** What identified the connection ({@link CableIdentification}); empty for an anonymous one. */
    Map<String, String> identifiers();

    /** The negotiated sub-protocol, {@code actioncable-v1-json} or {@code actioncable-v1-ext-json}. */
    String protocol();

    record Opened(String sessionId, Map<String, String> identifiers, String protocol) implements CableConnectionEvent {
    }

    record Closed(String sessionId, Map<String, String> identifiers, String protocol) implements CableConnectionEvent {
    }
}
