package io.quarkiverse.cable.runtime.core;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.spi.PresenceEnvelope;

/**
 * The names of the reserved channels: one per identity for the application's broadcasts ({@code stream_for}), one
 * for the whole cable carrying the disconnect commands, one carrying the whispers and one carrying presence events. Clients
 * cannot
 * choose them: a stream request names an identity channel only for its own identity, the others never.
 */
public final class IdentityChannels {

    /** The prefix {@link CableIdentities#channel} writes (the naming rule is the public API's). */
    public static final String PREFIX = "cable:identity:";
    /** Disconnect commands of every identity: rare, so one channel read by every node beats one per connection. */
    public static final String CONTROL = "cable:control:disconnect";
    /**
     * Every whisper of the cable travels on this one channel, each naming its stream: never in a stream's history, so
     * never replayed, written only by the cable (each carries the sender's session, to exclude it), and read by each
     * node with one subscription rather than one per stream. Every channel starting {@code cable:whisper} is reserved.
     */
    public static final String WHISPERS = "cable:whispers";
    private static final String WHISPER_PREFIX = "cable:whisper";
    /**
     * Every presence event (join, leave) of the cable travels on this one channel, each naming its channel, written
     * in the transaction that changed the presence set and read by each node with one subscription. Every channel
     * starting {@code cable:presence} is reserved.
     */
    public static final String PRESENCE = PresenceEnvelope.CHANNEL;
    /**
     * The presence set of identities ({@code quarkus.cable.presence.identity-events}): each identified connection joins
     * it as its identity's channel name, so "first session on the cluster" and "last one gone" are decided once.
     */
    public static final String IDENTITIES_PRESENT = "cable:presence:identities";

    private IdentityChannels() {
    }

    /** The identity's channel; identifiers sorted by key so that the name does not depend on the map's order. */
    public static String of(Map<String, String> identifiers) {
        // The naming rule is public (applications stream their identity's channel by name): it lives in the API.
        return CableIdentities.channel(identifiers);
    }

    public static boolean isControl(String channel) {
        return CONTROL.equals(channel);
    }

    /** Whether {@code channel} is (or could be taken for) the whisper channel: the cable writes and reads it alone. */
    public static boolean isWhispers(String channel) {
        return channel != null && channel.startsWith(WHISPER_PREFIX);
    }

    /** Whether {@code channel} is (or could be taken for) the presence channel: the cable writes and reads it alone. */
    public static boolean isPresence(String channel) {
        return channel != null && channel.startsWith(PRESENCE);
    }

    /** Whether only the cable itself writes and reads {@code channel}: the control, whisper and presence channels. */
    public static boolean isCableOwned(String channel) {
        return isControl(channel) || isWhispers(channel) || isPresence(channel);
    }

    /**
     * Whether a connection identified by {@code own} (empty when anonymous) must not stream {@code channel}: another
     * identity's channel, the control channel, the whisper channel (read raw, it would show every stream's
     * whispers and who sent them) or the presence channel (every channel's joins and leaves).
     */
    public static boolean refused(String channel, Map<String, String> own) {
        if (isCableOwned(channel)) {
            return true;
        }
        if (!channel.startsWith(PREFIX)) {
            return false;
        }
        return own == null || own.isEmpty() || !channel.equals(of(own));
    }

    /** The identifiers an identity channel's name was made of ({@link #of}); null when it is not one. */
    public static Map<String, String> identifiersOf(String channel) {
        if (channel == null || !channel.startsWith(PREFIX) || channel.length() == PREFIX.length()) {
            return null;
        }
        Map<String, String> identifiers = new TreeMap<>();
        for (String pair : channel.substring(PREFIX.length()).split("&")) {
            int equals = pair.indexOf('=');
            if (equals < 0) {
                return null;
            }
            identifiers.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return Map.copyOf(identifiers);
    }

    /**
     * Why the application's own broadcast on {@code channel} is refused, or null: only the cable writes commands. A
     * rule of the channel names, so the engine asks here without knowing the rest of identities.
     */
    public static CableException refusal(String channel) {
        if (isControl(channel)) {
            return new CableException.InvalidMessage("Cable channel '" + channel + "' is reserved for the cable's own"
                    + " commands; use CableIdentities.disconnect");
        }
        if (isWhispers(channel)) {
            return new CableException.InvalidMessage("Cable channel '" + channel + "' is reserved for clients'"
                    + " whispers (ChannelSubscription.whisperTo); broadcast to the stream itself");
        }
        if (isPresence(channel)) {
            return new CableException.InvalidMessage("Cable channel '" + channel + "' is reserved for presence events"
                    + " (ChannelSubscription.presenceIn); they are written when a presence set changes");
        }
        return null;
    }
}
