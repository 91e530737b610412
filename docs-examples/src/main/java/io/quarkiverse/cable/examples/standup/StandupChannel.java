package io.quarkiverse.cable.examples.standup;

// tag::channel[]
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelParam;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.SubscriptionRejected;

@CableChannel("StandupChannel")          // createCable().subscribeTo("StandupChannel", { team, cursor })
public class StandupChannel {

    @Inject
    Cable cable;

    @OnSubscribe
    void subscribed(@ChannelParam String team, @ChannelParam Optional<String> cursor,
            ChannelSubscription subscription) {
        if (!team.matches("[a-z0-9-]{1,64}")) {
            throw new SubscriptionRejected("no such team");                   // reject_subscription with a reason
        }
        String channel = Standup.channel(team);
        if (cursor.isPresent()) {
            // The page's cursor: what was posted after the page was rendered is replayed, then live.
            subscription.streamFrom(channel, StreamPosition.parseCursor(cursor.get()));
        } else {
            subscription.streamFrom(channel);                                   // live only
        }
        // Who is on the board: present as the connection's identity, with the name the others display.
        subscription.presenceIn(channel);
        subscription.joinPresence(subscription.connectionPresenceId(),
                Map.of("name", subscription.connectionIdentifiers().get("user")));
    }

    @CableAction                                                              // channel.perform("post", { text })
    @Transactional
    void post(@ChannelParam String team, ChannelSubscription subscription, NewNote note) {
        Note saved = new Note();
        saved.team = team;
        saved.author = subscription.connectionIdentifiers().get("user");
        saved.text = note.text();
        saved.postedAt = Instant.now();
        saved.persist();
        // Part of this transaction: sent if and only if the note is saved.
        cable.broadcast(Standup.channel(team), saved.view());
    }

    /** What the "post" action carries. */
    public record NewNote(String text) {
    }
}
// end::channel[]
