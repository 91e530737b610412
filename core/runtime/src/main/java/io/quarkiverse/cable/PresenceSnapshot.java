package io.quarkiverse.cable;

import java.util.List;

/**
 * A channel's presence set as the database holds it now, on every node the same.
 *
 * @param total how many presence ids the set holds (not sessions: several tabs of one id count once)
 * @param records the ids with their info, by id, at most {@code quarkus.cable.presence.max-records} of them
 */
public record PresenceSnapshot(int total, List<PresenceRecord> records) {

    public PresenceSnapshot {
        records = List.copyOf(records);
    }
}
