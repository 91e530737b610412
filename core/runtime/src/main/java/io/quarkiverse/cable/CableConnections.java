package io.quarkiverse.cable;

/** The Action Cable connections open on this node. */
public interface CableConnections {

    /** Connections open on this node. */
    int count();

    /**
     * Sends {@code {"type":"disconnect","reason":reason,"reconnect":reconnect}} to every connection on this node and
     * closes it. Returns how many were closed.
     */
    int disconnectAll(String reason, boolean reconnect);

    /**
     * Like {@link #disconnectAll} with reason {@code remote}, for connections whose identifier {@code key} is {@code value}.
     */
    int disconnect(String key, String value, boolean reconnect);
}
