package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.EncodedFrames;

/**
 * The frame encoders of a node are shared per identifier and protocol and counted: an encoder lives while a stream
 * uses it, so subscribing and unsubscribing with ever new identifiers leaves none behind.
 */
class IdentifierFramesTest {

    private static final CableMessage MESSAGE = new CableMessage(7, "room", "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
            false);

    @Test
    void oneEncoderPerIdentifierAndProtocolWhileAStreamUsesIt() {
        IdentifierFrames frames = new IdentifierFrames();
        EncodedFrames first = frames.acquire("{\"channel\":\"Room\"}", false);
        EncodedFrames second = frames.acquire("{\"channel\":\"Room\"}", false);
        EncodedFrames extended = frames.acquire("{\"channel\":\"Room\"}", true);

        assertThat(second).isSameAs(first);
        assertThat(extended).isNotSameAs(first);
        assertThat(frames.size()).isEqualTo(2);
        // Shared: the second subscriber of the identifier gets the frame the first one made, not a new encoding.
        assertThat(second.frameFor(MESSAGE)).isSameAs(first.frameFor(MESSAGE));

        frames.release("{\"channel\":\"Room\"}", false);
        assertThat(frames.size()).isEqualTo(2);
        frames.release("{\"channel\":\"Room\"}", false);
        frames.release("{\"channel\":\"Room\"}", true);
        assertThat(frames.size()).isZero();
    }

    @Test
    void releasingAnUnknownIdentifierHoldsNothing() {
        IdentifierFrames frames = new IdentifierFrames();
        frames.release("{\"channel\":\"Never\"}", false);
        assertThat(frames.size()).isZero();
    }
}
