package io.quarkiverse.cable.runtime.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;

class Utf8StreamTest {

    private static boolean valid(int... bytes) {
        byte[] message = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            message[i] = (byte) bytes[i];
        }
        Utf8Stream utf8 = new Utf8Stream();
        utf8.reset();
        return utf8.feed(Unpooled.wrappedBuffer(message)) && utf8.complete();
    }

    @Test
    void acceptsUtf8AndRefusesWhatRfc3629Excludes() {
        Utf8Stream utf8 = new Utf8Stream();
        utf8.reset();
        assertThat(utf8.feed(Unpooled.wrappedBuffer("aé€😀\u0000".getBytes(StandardCharsets.UTF_8)))).isTrue();
        assertThat(utf8.complete()).isTrue();
        assertThat(valid(0xF4, 0x8F, 0xBF, 0xBF)).as("U+10FFFF").isTrue();
        assertThat(valid(0xED, 0x9F, 0xBF)).as("U+D7FF").isTrue();
        assertThat(valid(0xC3, 0x28)).as("a lead byte without its continuation").isFalse();
        assertThat(valid(0x80)).as("a continuation without a lead").isFalse();
        assertThat(valid(0xC0, 0xAF)).as("overlong /").isFalse();
        assertThat(valid(0xE0, 0x80, 0xAF)).as("overlong, three bytes").isFalse();
        assertThat(valid(0xF0, 0x80, 0x80, 0xAF)).as("overlong, four bytes").isFalse();
        assertThat(valid(0xED, 0xA0, 0x80)).as("a UTF-16 surrogate").isFalse();
        assertThat(valid(0xF4, 0x90, 0x80, 0x80)).as("above U+10FFFF").isFalse();
        assertThat(valid(0xF5, 0x80, 0x80, 0x80)).as("F5").isFalse();
        assertThat(valid(0xE2, 0x82)).as("cut at the end").isFalse();
    }

    @Test
    void aCharacterMaySpanFragments() {
        Utf8Stream utf8 = new Utf8Stream();
        utf8.reset();
        assertThat(utf8.feed(Unpooled.wrappedBuffer(new byte[] { 'x', (byte) 0xF0, (byte) 0x9F }))).isTrue();
        assertThat(utf8.complete()).isFalse();
        assertThat(utf8.feed(Unpooled.wrappedBuffer(new byte[] { (byte) 0x98 }))).isTrue();
        assertThat(utf8.feed(Unpooled.wrappedBuffer(new byte[] { (byte) 0x80, 'y' }))).isTrue();
        assertThat(utf8.complete()).isTrue();
        utf8.reset();
        assertThat(utf8.feed(Unpooled.wrappedBuffer(new byte[] { 'z' }))).isTrue();
        assertThat(utf8.complete()).as("a new message starts clean").isTrue();
    }
}
