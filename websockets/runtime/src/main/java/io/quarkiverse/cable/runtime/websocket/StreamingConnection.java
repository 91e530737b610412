package io.quarkiverse.cable.runtime.websocket;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.core.LocalSubscription;

/** A WebSockets Next connection with cable streams on this node: its outbox and its streams by channel. */
record StreamingConnection(ConnectionOutbox outbox, Map<String, LocalSubscription> streams) {

    StreamingConnection(ConnectionOutbox outbox) {
        this(outbox, new ConcurrentHashMap<>());
    }
}
