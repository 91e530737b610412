package io.quarkiverse.cable;

/**
 * A change of a channel's presence set, once per cluster: {@link Type#JOIN} when an id's first session joined,
 * {@link Type#LEAVE} when its last one left, unsubscribed, or disconnected and did not come back within
 * {@code quarkus.cable.presence.ttl} (also when its node died). Joins of further sessions of an id are silent.
 *
 * @param channel the channel whose set changed
 * @param type join or leave
 * @param id the presence id
 * @param info the join's info as JSON text; null for a leave or a join without info
 */
public record PresenceEvent(String channel, Type type, String id, String info) {

    public enum Type {
        JOIN,
        LEAVE
    }
}
