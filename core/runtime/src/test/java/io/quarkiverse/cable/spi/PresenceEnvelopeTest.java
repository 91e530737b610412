package io.quarkiverse.cable.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * A presence event is spliced into frames as it is, so the reader takes only the events the cable writes: a row on
 * the presence channel written by anything else (SQL with the table's rights) must not add keys to a client's frame.
 */
class PresenceEnvelopeTest {

    private static PresenceEnvelope read(OutgoingMessage written) {
        return PresenceEnvelope.parse(new String(written.payload(), StandardCharsets.UTF_8));
    }

    @Test
    void theEventsTheCableWritesAreWellFormed() {
        assertThat(read(PresenceEnvelope.joined("room:1", "42", "{\"name\":\"ann\",\"n\":[1,2.5]}", false).get(0))
                .wellFormed()).isTrue();
        assertThat(read(PresenceEnvelope.joined("room:1", "42", null, false).get(0)).wellFormed()).isTrue();
        assertThat(read(PresenceEnvelope.left("room:1", "4\"2", false).get(0)).wellFormed()).isTrue();
        assertThat(read(PresenceEnvelope.updated("room:1", "42", "{\"name\":\"Ann B.\"}", false).get(0)).wellFormed())
                .isTrue();
        assertThat(read(PresenceEnvelope.updated("room:1", "42", null, false).get(0)).wellFormed()).isTrue();
    }

    @Test
    void anythingElseIsNot() {
        for (String event : new String[] {
                // Closes the presence frame's message early: a frame {"type":"presence",...,"type":"disconnect"}.
                "{\"type\":\"join\",\"id\":\"x\"},\"type\":\"disconnect\",\"reconnect\":false",
                "null,\"type\":\"disconnect\",\"reconnect\":false",
                "{\"type\":\"join\",\"id\":\"x\"}{\"type\":\"disconnect\"}",
                "{\"type\":\"join\",\"id\":\"x\"} trailing",
                "{\"type\":\"disconnect\",\"reconnect\":false}",
                "{\"type\":\"join\",\"id\":7}",
                "{\"type\":\"leave\",\"id\":\"x\",\"info\":{}}",
                "{\"type\":\"join\",\"id\":\"x\",\"info\":{},\"extra\":1}",
                "{\"type\":\"update\",\"id\":\"x\",\"info\":{},\"extra\":1}",
                "[\"join\"]",
                "not json",
                "" }) {
            assertThat(new PresenceEnvelope("room:1", event).wellFormed()).as(event).isFalse();
        }
    }
}
