package io.quarkiverse.cable.runtime.core;

import java.util.List;
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

    /**
     * The sessions open on this node as the Dev UI lists them; empty for a front end that does not describe its
     * sessions. Built on demand (a copy of the current state, never kept), so it costs nothing until asked.
     */
    default List<SessionView> sessions() {
        return List.of();
    }

    /**
     * One open session, for the Dev UI.
     *
     * @param id the WebSocket connection id
     * @param protocol the negotiated protocol (e.g. {@code actioncable-v1-json})
     * @param identifiers what identification gave the connection (empty before it was identified, or for none)
     * @param subscriptions the subscriptions' identifiers, as the client sent them
     * @param presenceSets the cable channels of the presence sets its subscriptions are in
     * @param openMillis how long it has been open
     */
    record SessionView(String id, String protocol, Map<String, String> identifiers, List<String> subscriptions,
            List<String> presenceSets, long openMillis) {
    }
}
