package io.quarkiverse.cable.runtime.core;

import java.util.Map;

/** The sessions of one kind on this node (Action Cable connections, {@code @StreamFrom} connections). */
@FunctionalInterface
public interface LocalSessions {

    /** Closes every session of this node identified by exactly {@code identifiers}; returns how many. */
    int disconnect(Map<String, String> identifiers, boolean reconnect);
}
