package io.quarkiverse.cable.runtime.core;

import java.util.Map;

/**
 * The sessions of one WebSocket front end on this node (Action Cable connections, {@code @StreamFrom} connections):
 * a bean of each front end, which the remote disconnects of {@code CableIdentities} reach.
 */
public interface LocalSessions {

    /** Closes every session of this node identified by exactly {@code identifiers}; returns how many. */
    int disconnectIdentity(Map<String, String> identifiers, boolean reconnect);

    /** Sessions open on this node: Action Cable connections, {@code @StreamFrom} connections with a stream. */
    int count();
}
