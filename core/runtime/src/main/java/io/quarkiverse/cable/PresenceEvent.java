package io.quarkiverse.cable;

/**
 * A change of a channel's presence set, once per cluster: {@link Type#JOIN} when an id's first session joined,
 * {@link Type#LEAVE} when its last one left, unsubscribed, or disconnected and did not come back within
 * {@code quarkus.cable.presence.ttl} (also when its node died); {@link Type#UPDATE} when a member already in the set
 * joined again with other info (another session, or the same one). Joins of further sessions with the same info are
 * silent.
 *
 * @param channel the channel whose set changed
 * @param type join, update or leave
 * @param id the presence id
 * @param info the join's (or update's) info as JSON text; null for a leave, or a join or update without info
 */
public record PresenceEvent(String channel, Type type, String id, String info) {

    public enum Type {
        JOIN,
        UPDATE,
        LEAVE
    }
}
