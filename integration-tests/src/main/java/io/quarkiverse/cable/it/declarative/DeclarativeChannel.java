package io.quarkiverse.cable.it.declarative;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelParam;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkiverse.cable.OnUnsubscribe;
import io.quarkiverse.cable.SubscriptionRejected;
import io.quarkiverse.cable.it.context.RequestProbe;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.JsonObject;

/**
 * A channel written with the annotations alone (no {@code ChannelHandler}): {@code @OnSubscribe} binds one identifier
 * parameter of each kind and transmits what it received, with the identity and request bean it saw; room
 * {@code closed} is refused by throwing, room {@code full} through {@code reject(reason)}. {@code @OnUnsubscribe}
 * completes {@link #LEFT} for the room. {@code say} takes a parameter and a record, {@code whoami} no data at all.
 */
@CableChannel("DeclarativeChannel")
public class DeclarativeChannel {

    /** A record parameter, decoded from a JSON object in the identifier. */
    public record Filter(String kind, int min) {
    }

    /** A record decoded from the action's data. */
    public record Said(String text) {
    }

    /** By room: what {@code @OnUnsubscribe} saw ({@code <room>/<user>}), once it ran. */
    public static final Map<String, CompletableFuture<String>> LEFT = new ConcurrentHashMap<>();

    @Inject
    RequestProbe probe;

    @OnSubscribe
    void join(@ChannelParam String room, @ChannelParam("count") int count, @ChannelParam("big") long big,
            @ChannelParam("flag") boolean flag, @ChannelParam("id") UUID id, ChannelSubscription subscription,
            @ChannelParam("filter") Optional<Filter> filter, @ChannelParam("tags") Optional<List<String>> tags,
            SecurityIdentity identity) {
        if (room.equals("closed")) {
            throw new SubscriptionRejected("room closed");
        }
        if (room.equals("full")) {
            subscription.reject("room full");
            return;
        }
        subscription.streamFrom("declarative:" + room);
        subscription.transmit(new JsonObject().put("room", room).put("count", count).put("big", big).put("flag", flag)
                .put("id", id.toString())
                .put("filter", filter.map(f -> f.kind() + ">" + f.min()).orElse("none"))
                .put("tags", tags.map(t -> String.join(",", t)).orElse("none"))
                .put("seen", RequestProbe.seen(identity, probe)));
    }

    @OnUnsubscribe
    void leave(@ChannelParam String room, SecurityIdentity identity) {
        LEFT.computeIfAbsent(room, ignored -> new CompletableFuture<>())
                .complete(room + "/" + (identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName()));
    }

    @CableAction
    void say(ChannelSubscription subscription, @ChannelParam("room") String room, Said said) {
        subscription.transmit(new JsonObject().put("said", room + ":" + said.text()));
    }

    @CableAction
    void whoami(SecurityIdentity identity, ChannelSubscription subscription, @ChannelParam("count") long count) {
        subscription.transmit(new JsonObject().put("whoami", identity.getPrincipal().getName() + "#" + count));
    }
}
