package io.quarkiverse.cable.runtime.core;

import java.util.function.Consumer;

import io.quarkiverse.cable.CableMessage;

/**
 * Observers of this node's successful broadcasts (the testing helper's capture): each is told about a broadcast once
 * it is committed (for a transactional one, after its transaction committed). The message's id is 0: ids are
 * assigned by the store and not known to the broadcaster.
 */
public interface BroadcastTaps {

    void add(Consumer<CableMessage> tap);

    void remove(Consumer<CableMessage> tap);

    /**
     * Waits until every broadcast accepted before this call (while a tap was registered) has settled: each one that
     * succeeded was given to the taps before this returns.
     *
     * @return false when some had not settled within {@code timeoutNanos}
     */
    boolean fence(long timeoutNanos) throws InterruptedException;

    /** How many broadcasts accepted so far have not settled (for a fence's failure message). */
    int unsettled();
}
