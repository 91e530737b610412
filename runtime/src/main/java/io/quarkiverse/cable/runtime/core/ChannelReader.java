package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;

/**
 * A node's one subscription of a channel of the cable's own that carries the traffic of many streams (the whispers,
 * the presence events): each message's text goes to the reader's dispatcher, which finds the local receivers. One
 * subscription per node, so a receiver costs the dispatcher an entry, not a subscription of the engine. Made by
 * {@link CableEngine#channelReader}.
 */
public interface ChannelReader {

    /** Completes once this node reads the channel (its starting line): what commits after that reaches dispatch. */
    CompletableFuture<Void> reading();
}
