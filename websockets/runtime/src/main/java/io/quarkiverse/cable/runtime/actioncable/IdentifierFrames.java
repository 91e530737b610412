package io.quarkiverse.cable.runtime.actioncable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.runtime.core.EncodedFrames;
import io.quarkiverse.cable.runtime.internals.SharedTextFrame;
import io.vertx.core.json.Json;

/**
 * One frame encoder per subscription identifier on this node, shared by every connection subscribed with that
 * identifier, so a broadcast is encoded once per identifier, not once per subscriber, down to its UTF-8 bytes
 * ({@link SharedTextFrame}): each connection writes a view of the same buffer. Reference-counted: an encoder
 * lives while a stream uses it. The frames of different identifiers share the broadcast's {@code message} value, made
 * once per broadcast ({@link Frames#messageValue}: it reads the whole payload), not once per identifier: eight
 * subscriptions with identifiers of their own would otherwise read every payload eight times.
 */
final class IdentifierFrames {

    private static final class Counted {
        final EncodedFrames frames;
        int references;

        Counted(String encodedIdentifier, boolean extended, EncodedFrames values) {
            frames = new EncodedFrames(message -> {
                String value = (String) values.frameFor(message);
                return SharedTextFrame.of(extended ? Frames.extendedBroadcast(encodedIdentifier, message, value)
                        : Frames.message(encodedIdentifier, value));
            });
        }
    }

    private final Map<String, Counted> frames = new ConcurrentHashMap<>();
    /** The {@code message} value of the latest broadcast, for every identifier's frame of it. */
    private final EncodedFrames values = new EncodedFrames(Frames::messageValue);

    /**
     * The encoder of {@code identifier}'s frames in one protocol: keyed by both, so v1-json frames stay byte-identical
     * while ext connections of the same identifier get positions.
     */
    EncodedFrames acquire(String identifier, boolean extended) {
        return frames.compute(key(identifier, extended), (key, counted) -> {
            Counted result = counted == null ? new Counted(Json.encode(identifier), extended, values) : counted;
            result.references++;
            return result;
        }).frames;
    }

    void release(String identifier, boolean extended) {
        frames.computeIfPresent(key(identifier, extended),
                (key, counted) -> --counted.references == 0 ? null : counted);
    }

    private static String key(String identifier, boolean extended) {
        return (extended ? "x" : "v") + identifier;
    }

    int size() {
        return frames.size();
    }
}
