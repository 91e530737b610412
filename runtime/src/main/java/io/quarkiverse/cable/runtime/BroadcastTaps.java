package io.quarkiverse.cable.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.quarkiverse.cable.CableMessage;

/**
 * Observers of this node's successful broadcasts (the testing helper's capture): each is told about a broadcast
 * once it is committed (for a transactional one, after its transaction committed). Empty in production, where the
 * data path only checks that.
 */
public final class BroadcastTaps {

    private final List<Consumer<CableMessage>> taps = new CopyOnWriteArrayList<>();

    public void add(Consumer<CableMessage> tap) {
        taps.add(tap);
    }

    public void remove(Consumer<CableMessage> tap) {
        taps.remove(tap);
    }

    public boolean isEmpty() {
        return taps.isEmpty();
    }

    /** The message's id is 0: ids are assigned by the store and not known to the broadcaster. */
    void committed(String channel, byte[] payload, boolean binary) {
        CableMessage message = new CableMessage(0, channel, payload, binary);
        for (Consumer<CableMessage> tap : taps) {
            tap.accept(message);
        }
    }
}
