package io.quarkiverse.cable;

/**
 * One presence id in a channel's presence set.
 *
 * @param id the presence id (a user id, a device id: whatever the joins named); one record however many sessions
 *        joined with it
 * @param info the info of the id's newest join, as JSON text; null when it gave none
 */
public record PresenceRecord(String id, String info) {
}
