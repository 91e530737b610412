package io.quarkiverse.cable.runtime.actioncable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.runtime.websocket.EncodedFrames;
import io.vertx.core.json.Json;

/**
 * One frame encoder per subscription identifier on this node, shared by every connection subscribed with that
 * identifier, so a broadcast is encoded once per identifier, not once per subscriber. Reference-counted: an encoder
 * lives while a stream uses it.
 */
final class IdentifierFrames {

    private static final class Counted {
        final EncodedFrames frames;
        int references;

        Counted(String encodedIdentifier) {
            frames = new EncodedFrames(message -> Frames.broadcast(encodedIdentifier, message));
        }
    }

    private final Map<String, Counted> frames = new ConcurrentHashMap<>();

    EncodedFrames acquire(String identifier) {
        return frames.compute(identifier, (key, counted) -> {
            Counted result = counted == null ? new Counted(Json.encode(identifier)) : counted;
            result.references++;
            return result;
        }).frames;
    }

    void release(String identifier) {
        frames.computeIfPresent(identifier, (key, counted) -> --counted.references == 0 ? null : counted);
    }

    int size() {
        return frames.size();
    }
}
