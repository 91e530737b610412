package io.quarkiverse.cable.runtime.core;

import java.util.Iterator;

/**
 * One WebSocket connection's outbound frames, for every WebSocket front end (each writes through its own {@link Wire}).
 * Frames are written without waiting. A connection is closed as a slow consumer when its writes have made no progress
 * for the stall timeout while frames wait, or when the bytes waiting for it (frames handed to the socket and not
 * written yet, at their encoded size) would exceed the limit; either way it cannot grow the memory beyond its bound,
 * and nobody else waits for it. The stall is checked on every send and by a periodic {@link #checkStalled()}. A healthy
 * client taking a burst keeps completing writes, so it is not mistaken for a stalled one.
 */
public interface ConnectionOutbox {

    /**
     * Where an outbox writes: a WebSockets Next connection ({@code WebSocketWire}, under both WebSocket front ends).
     * The outbox knows no socket API.
     */
    interface Wire {
        /**
         * Writes a frame of a kind this wire takes (a String or byte[], or the wire's own encoded form) without
         * waiting; {@code done} runs when it completed or failed.
         */
        void write(Object frame, Runnable done);

        /**
         * The bytes {@code frame} holds until it is written: its encoded size. A frame shared by many connections
         * counts its whole size on each (the bound is per connection). {@link #plainSize} sizes Strings and byte[].
         */
        long size(Object frame);

        void close(int code, String reason);

        /** Whether the socket underneath is closed, whoever closed it (seen even if no close handler ever ran). */
        boolean isClosed();
    }

    /** RFC 6455 "policy violation": used for clients too slow to read and for connections that cannot stream. */
    int POLICY_VIOLATION = 1008;

    /** The close reason a slow consumer sees (code 1008), documented on the Security page. */
    String SLOW_CLIENT_REASON = "cable: client too slow";

    /** Hears why a connection is closed as a slow consumer (before its close). */
    interface SlowConsumer {
        void closing(CableStats.Refusal reason, String why);
    }

    /** The per-connection bounds, from quarkus.cable.websocket.*; read once at startup. */
    record OutboxLimits(int maxPendingFrames, long maxPendingBytes, long stallTimeoutNanos) {

        /** The bounds every WebSocket front end applies (CableConfigCheck has validated them). */
        public static OutboxLimits of(CableRuntimeConfig config) {
            CableRuntimeConfig.WebSocket websocket = config.websocket();
            return new OutboxLimits(websocket.maxPendingFrames(), websocket.maxPendingBytes().asLongValue(),
                    websocket.stallTimeout().toNanos());
        }

        long stallTimeoutMillis() {
            return stallTimeoutNanos / 1_000_000;
        }
    }

    /** An outbox writing through {@code wire} within {@code limits}; {@code onSlowConsumer} hears why it closes one. */
    static ConnectionOutbox create(Wire wire, OutboxLimits limits, SlowConsumer onSlowConsumer) {
        return new BoundedOutbox(wire, limits, onSlowConsumer);
    }

    /** The encoded size of a text (a CharSequence, or anything else as its String) or binary (byte[]) frame. */
    static long plainSize(Object frame) {
        if (frame instanceof byte[] binary) {
            return binary.length;
        }
        return utf8Length(frame instanceof CharSequence text ? text : String.valueOf(frame));
    }

    /** The UTF-8 length of {@code text}, counted without encoding it. */
    static long utf8Length(CharSequence text) {
        long length = text.length();
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                length += c < 0x800 ? 1 : Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return length;
    }

    OutboxLimits limits();

    /**
     * Writes a frame of a kind the wire takes ({@link Wire#write}); never blocks. A frame that would take the bytes
     * waiting for this connection over {@link OutboxLimits#maxPendingBytes()} closes it as a slow consumer instead
     * (one frame alone always goes: a single broadcast is bounded by the payload limit).
     */
    void send(Object frame);

    /**
     * Writes the frames of {@code frames} in order, behind what is already waiting, each made only when the bytes in
     * flight leave room for it: a history replay of any length holds at most about half of
     * {@link OutboxLimits#maxPendingBytes()} of this connection's memory, never the whole replay. Frames sent
     * meanwhile wait behind it (and count against the bound). A client that stops reading stalls the source and is
     * closed by the stall timeout.
     */
    void sendPaced(Iterator<?> frames);

    /**
     * Closes the connection as a slow consumer when frames have waited without progress for the stall timeout. Run
     * periodically, so a client that stalls after the last frame it was sent is closed, and its streams stopped,
     * without waiting for another frame that may never come.
     */
    void checkStalled();

    /** Stops sending and closes the wire; later frames are dropped, and so are frames not yet handed to the wire. */
    void close(int code, String reason);

    /**
     * Sends {@code frame} as this connection's last (a {@code disconnect}) and closes the wire right behind it. Frames
     * not yet handed to the wire are dropped, as by {@link #close}, and frames sent afterwards are refused; the frame
     * goes through the draining thread, so a broadcast another thread is writing at this moment goes before it, never
     * after. (Sent and closed as two calls, a delivery could slip in between them: a client that has already handled
     * {@code disconnect} drops that message, then asks for it again on its next connection.)
     */
    void sendLastAndClose(Object frame, int code, String reason);

    /** Whether the connection is closed or closing: frames sent now are dropped. */
    boolean isClosing();

    /** Whether the socket underneath is closed (by either side, or by the network). */
    boolean isWireClosed();

    /** Bytes waiting for this connection: handed to the wire and not written yet, or queued here (for tests). */
    long pendingBytes();
}
