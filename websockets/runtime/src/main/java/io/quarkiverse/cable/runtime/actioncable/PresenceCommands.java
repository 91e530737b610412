package io.quarkiverse.cable.runtime.actioncable;

import java.util.function.BiConsumer;
import java.util.function.Function;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.frontend.RateBucket;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * AnyCable's presence commands of one Action Cable connection ({@code join}, {@code leave}, {@code presence}) on its
 * subscriptions, with their bounds: joins and leaves per subscription ({@code presence.changes-per-second}, the
 * subscription's bucket), presence answers per connection in bytes ({@code presence.info-bytes-per-second}). Every
 * command that cannot be carried out is answered with the presence error frame, never with silence. Runs on the
 * connection's runner, as its other commands do.
 */
final class PresenceCommands {

    private final String connectionId;
    private final ConnectionOutbox outbox;
    private final ActionCableServer server;
    private final Function<String, ActionCableSubscription> subscriptions;
    /** The connection's rate-limited bad-input log: (cause, problem). */
    private final BiConsumer<String, String> invalid;
    /** Guarded by itself: what this connection's presence info answers may cost the server (build and send). */
    private final RateBucket presenceInfoBudget;

    PresenceCommands(String connectionId, ConnectionOutbox outbox, ActionCableServer server,
            Function<String, ActionCableSubscription> subscriptions, BiConsumer<String, String> invalid) {
        this.connectionId = connectionId;
        this.outbox = outbox;
        this.server = server;
        this.subscriptions = subscriptions;
        this.invalid = invalid;
        // A second's worth at once, then that many bytes per second, charged as each answer's size is known.
        this.presenceInfoBudget = new RateBucket(server.presenceInfoBytesPerSecond(),
                server.presenceInfoBytesPerSecond());
    }

    /**
     * A client's {@code presence} member ({@code {"id":"42","info":{...}}}), or null when it is not one: the id a
     * string or a number (older clients sent numbers; taken as their decimal text), the info any JSON.
     */
    static ActionCableSubscription.PendingJoin presenceJoin(Object presence) {
        if (!(presence instanceof JsonObject member)) {
            return null;
        }
        Object id = member.getValue("id");
        String presenceId = id instanceof String text ? text
                : id instanceof Number number ? Json.encode(number) : null;
        if (presenceId == null) {
            return null;
        }
        Object info = member.getValue("info");
        return new ActionCableSubscription.PendingJoin(presenceId,
                info == null ? null : Json.encode(info), true);
    }

    /**
     * AnyCable's {@code join}: into the subscription's presence set, answered only by the join event (to every member,
     * this client too) when the id is new. What cannot join gets a presence error frame, never silence.
     */
    void join(String identifier, Object presence) {
        ActionCableSubscription subscription = presenceSubscription("join", identifier);
        if (subscription == null || !presenceChangeAdmitted("join", subscription)) {
            return;
        }
        ActionCableSubscription.PendingJoin join = presenceJoin(presence);
        String problem = join == null ? "its presence is not {\"id\": a string or number, \"info\": any JSON}"
                : subscription.clientJoin(join.presenceId(), join.infoJson());
        if (problem != null) {
            invalid.accept("presence", "could not join presence on " + ActionCableCommand.clip(identifier) + ": " + problem);
            outbox.send(Frames.presenceError(subscription.encodedIdentifier()));
        }
    }

    void leave(String identifier) {
        ActionCableSubscription subscription = presenceSubscription("leave", identifier);
        if (subscription != null && presenceChangeAdmitted("leave", subscription)) {
            try {
                subscription.leavePresence();
            } catch (CableException e) {
                invalid.accept("presence", "could not leave presence on " + ActionCableCommand.clip(identifier) + ": " + e);
                outbox.send(Frames.presenceError(subscription.encodedIdentifier()));
            }
        }
    }

    /**
     * Whether the client may ask for one more join or leave on {@code subscription} now. Each is a transaction, a frame
     * to every member and, with presence.in-stream, a message that takes a place in the channel's replay window: a
     * client churning join/leave would push the room's messages out of it. The excess gets the presence error frame,
     * nothing changed.
     */
    private boolean presenceChangeAdmitted(String command, ActionCableSubscription subscription) {
        if (subscription.admitPresenceChange()) {
            return true;
        }
        server.refused(CableStats.Refusal.PRESENCE_RATE, "Action Cable connection " + connectionId + " asked for presence joins"
                + " and leaves on " + ActionCableCommand.clip(subscription.identifier()) + " beyond "
                + server.presenceChangesPerSecond() + " per second (quarkus.cable.presence.changes-per-second); its "
                + command + " is answered with the error frame");
        outbox.send(Frames.presenceError(subscription.encodedIdentifier()));
        return false;
    }

    /** AnyCable's {@code presence}: the set's total and records to this client only, or the error frame. */
    void presence(String identifier, Object data) {
        ActionCableSubscription subscription = presenceSubscription("presence", identifier);
        if (subscription == null) {
            return;
        }
        boolean withRecords = !(data instanceof JsonObject options && Boolean.FALSE.equals(options.getValue("return_records")));
        // Checked before the snapshot is read: reading and encoding it is the work being bounded, not only sending it.
        boolean admitted;
        synchronized (presenceInfoBudget) {
            admitted = presenceInfoBudget.solvent();
        }
        if (!admitted) {
            server.refused(CableStats.Refusal.PRESENCE_INFO_BYTES, "Action Cable connection " + connectionId
                    + " asked for presence answers beyond " + server.presenceInfoBytesPerSecond()
                    + " bytes per second (quarkus.cable.presence.info-bytes-per-second); answered with the error frame");
            outbox.send(Frames.presenceError(subscription.encodedIdentifier()));
            return;
        }
        String info;
        try {
            info = subscription.presenceInfo(withRecords);
        } catch (CableException e) {
            invalid.accept("presence", "could not read presence of " + ActionCableCommand.clip(identifier) + ": " + e);
            info = null;
        }
        if (info == null) {
            invalid.accept("presence", "asked for presence on " + ActionCableCommand.clip(identifier) + ", whose channel "
                    + subscription.channel().name() + " has no presence set (ChannelSubscription.presenceIn)");
        }
        if (info != null) {
            // UTF-8 bytes: what the frame takes on the wire and in the outbox.
            long size = ConnectionOutbox.utf8Length(info);
            synchronized (presenceInfoBudget) {
                presenceInfoBudget.charge(size);
            }
        }
        outbox.send(info != null ? info : Frames.presenceError(subscription.encodedIdentifier()));
    }

    /**
     * The subscription a presence command names; for an identifier that is not subscribed, the error frame under the
     * identifier as sent (so a client waiting on it stops waiting) and null.
     */
    private ActionCableSubscription presenceSubscription(String command, String identifier) {
        ActionCableSubscription subscription = subscriptions.apply(identifier);
        if (subscription == null) {
            invalid.accept("presence", "sent " + command + " for " + ActionCableCommand.clip(identifier)
                    + ", which is not subscribed");
            outbox.send(Frames.presenceError(Json.encode(identifier)));
        }
        return subscription;
    }
}
