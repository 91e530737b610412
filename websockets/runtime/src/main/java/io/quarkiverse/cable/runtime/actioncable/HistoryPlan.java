package io.quarkiverse.cable.runtime.actioncable;

import java.time.Instant;
import java.util.Map;

import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.vertx.core.json.JsonObject;

/**
 * The {@code history} object of an extended-protocol {@code subscribe}: {@code since} (seconds since the epoch; any
 * non-number, or 0, means none) and {@code streams} (stream id to {@code {epoch, offset}}). A position takes
 * precedence over {@code since}.
 *
 * @param since the time to replay from when a stream has no position, or null
 * @param positions the positions by stream id (the cable channel)
 */
record HistoryPlan(Instant since, Map<String, StreamPosition> positions) {

    /**
     * The plan of a request, or null when there is no history step: AnyCable runs it only when {@code since} is
     * above 0 or {@code streams} is an object (an empty one counts).
     */
    static HistoryPlan of(Object history) {
        if (!(history instanceof JsonObject request)) {
            return null;
        }
        Instant since = request.getValue("since") instanceof Number seconds && seconds.doubleValue() > 0
                ? Instant.ofEpochMilli((long) (seconds.doubleValue() * 1000))
                : null;
        Object streams = request.getValue("streams");
        if (since == null && !(streams instanceof JsonObject)) {
            return null;
        }
        Map<String, StreamPosition> positions = new java.util.HashMap<>();
        if (streams instanceof JsonObject byStream) {
            for (String stream : byStream.fieldNames()) {
                StreamPosition position = position(byStream.getValue(stream));
                if (position != null) {
                    positions.put(stream, position);
                }
            }
        }
        return new HistoryPlan(since, Map.copyOf(positions));
    }

    /** What to replay for {@code stream}: after its position, since the time, or nothing. */
    HistoryRequest requestFor(String stream) {
        StreamPosition position = positions.get(stream);
        if (position != null) {
            return new HistoryRequest.After(position);
        }
        return since != null ? new HistoryRequest.Since(since) : new HistoryRequest.PositionOnly();
    }

    /** {@code {epoch, offset}}, or null when it is not one (then the stream is treated as having no position). */
    private static StreamPosition position(Object value) {
        if (value instanceof JsonObject entry && entry.getValue("epoch") instanceof String epoch && !epoch.isEmpty()
                && entry.getValue("offset") instanceof Number offset && offset.longValue() >= 0) {
            return new StreamPosition(epoch, offset.longValue());
        }
        return null;
    }
}
