package io.quarkiverse.cable.spi;

/**
 * Where an adapter keeps its history: the messages table, or the memory adapter's per-channel logs. May block (it
 * runs on a virtual thread of its own).
 */
public interface HistorySource {

    /**
     * The messages {@code request} asks for, of {@code channel}, up to the subscription's starting line
     * {@code startingLine}, in position order; all of them or none.
     *
     * @throws CableException.HistoryUnavailable when some of them are not there any more (nothing is replayed)
     * @throws Exception when the history could not be read
     */
    Replay replay(String channel, long channelHash, HistoryRequest request, long startingLine) throws Exception;
}
