package io.quarkiverse.cable.runtime.internals;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

/**
 * Checks that the bytes of one text message, fed fragment by fragment, are UTF-8 as RFC 3629 defines it (no overlong
 * forms, no surrogates, nothing above U+10FFFF), as RFC 6455 requires of a text message: a character may be split
 * between fragments, so the state carries over. Vert.x decodes text frames with replacement characters instead of
 * refusing them. One per connection, used on its event loop only.
 */
final class Utf8Stream implements ByteProcessor {

    /** Continuation bytes the current character still needs. */
    private int needed;
    /** The range the next byte must be in (narrower than 0x80-0xBF right after some lead bytes). */
    private int low = 0x80;
    private int high = 0xBF;
    private boolean broken;

    /** Starts a new message. */
    void reset() {
        needed = 0;
        broken = false;
    }

    /** Feeds one fragment's bytes; false once the message is not UTF-8. */
    boolean feed(ByteBuf bytes) {
        if (!broken && bytes.isReadable()) {
            bytes.forEachByte(this);
        }
        return !broken;
    }

    /** True when the message ends on a whole character (and was UTF-8 all along). */
    boolean complete() {
        return !broken && needed == 0;
    }

    @Override
    public boolean process(byte value) {
        int b = value & 0xFF;
        if (needed > 0) {
            if (b < low || b > high) {
                broken = true;
                return false;
            }
            needed--;
            low = 0x80;
            high = 0xBF;
            return true;
        }
        if (b < 0x80) {
            return true;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            needed = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            needed = 2;
            if (b == 0xE0) {
                low = 0xA0; // shorter forms are overlong
            } else if (b == 0xED) {
                high = 0x9F; // above are the UTF-16 surrogates
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            needed = 3;
            if (b == 0xF0) {
                low = 0x90; // overlong
            } else if (b == 0xF4) {
                high = 0x8F; // above U+10FFFF
            }
        } else {
            broken = true; // a continuation byte without a lead, C0/C1 (overlong) or F5-FF (never UTF-8)
            return false;
        }
        return true;
    }
}
