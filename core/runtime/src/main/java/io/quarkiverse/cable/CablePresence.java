package io.quarkiverse.cable;

import java.util.concurrent.CompletionStage;

import io.smallrye.mutiny.Multi;

/**
 * Who is present in a channel, cluster-wide: the presence sets that Action Cable clients join ({@code @anycable/web}'s
 * {@code channel.presence.join(id, info)}) or channels join for them ({@link ChannelSubscription#joinPresence}), kept
 * in the application's database. Inject it where the application wants to read them.
 */
public interface CablePresence {

    /** The channel's presence set now (a database read, off the caller's thread). */
    CompletionStage<PresenceSnapshot> snapshot(String channel);

    /** How many presence ids the channel's set holds now (a database read, off the caller's thread). */
    CompletionStage<Integer> count(String channel);

    /**
     * The channel's joins and leaves from now on, on this node, in the order they were committed (each change of the
     * cluster once). Delivered on the cable's poller thread: do not block in the subscriber. A subscriber that falls
     * more than 1,024 events behind gets a failure and must subscribe again (and read a snapshot).
     */
    Multi<PresenceEvent> events(String channel);
}
