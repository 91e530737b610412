package io.quarkiverse.cable.runtime.sse;

import java.util.Base64;

import io.quarkiverse.cable.CableMessage;

/**
 * The event of a broadcast, built once for every stream that receives it: the poller hands one message to all the
 * channel's subscribers in turn, so a one-entry cache keyed by the message's identity turns N decodes of the payload
 * (and N ids, N base64 copies) into one, and every stream's queue holds the same event. A miss (two threads
 * interleaving) only builds one more equal event.
 */
final class SharedEvents {

    private record Entry(CableMessage message, TextEvent event) {
    }

    private static volatile Entry last;

    private SharedEvents() {
    }

    static TextEvent of(CableMessage message) {
        Entry entry = last;
        if (entry != null && entry.message == message) {
            return entry.event;
        }
        TextEvent event = build(message);
        last = new Entry(message, event);
        return event;
    }

    private static TextEvent build(CableMessage message) {
        String data = message.binary() ? Base64.getEncoder().encodeToString(message.payload()) : message.text();
        return new TextEvent(null, message.epoch() + ":" + message.position(), data);
    }

    /** What an event costs while it waits: about its size on the wire (its characters and the field names). */
    static long size(TextEvent event) {
        return 16 + length(event.name()) + length(event.id()) + length(event.data()) + length(event.comment());
    }

    private static int length(String value) {
        return value == null ? 0 : value.length();
    }
}
