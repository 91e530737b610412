package io.quarkiverse.cable.runtime.sse;

import java.lang.reflect.Type;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;

/**
 * A text Server-Sent Event, or a comment line: our own small implementation, so no {@code Sse} context is needed to
 * build one.
 */
record TextEvent(String name, String id, String data, String comment) implements OutboundSseEvent {

    /** An empty comment line ({@code ":"}): written to a quiet stream, ignored by every {@code EventSource}. */
    static final TextEvent HEARTBEAT = new TextEvent(null, null, null, "");

    TextEvent(String name, String id, String data) {
        this(name, id, data, null);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public String getData() {
        return data;
    }

    @Override
    public String getComment() {
        return comment;
    }

    @Override
    public long getReconnectDelay() {
        return -1;
    }

    @Override
    public boolean isReconnectDelaySet() {
        return false;
    }

    @Override
    public Class<?> getType() {
        return String.class;
    }

    @Override
    public Type getGenericType() {
        return String.class;
    }

    @Override
    public MediaType getMediaType() {
        return MediaType.TEXT_PLAIN_TYPE;
    }
}
