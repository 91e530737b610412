package io.quarkiverse.cable.runtime.sse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A replay chunk carries each event as Quarkus REST's {@code SseUtil} writes it one by one (fields without a space
 * after the colon; a data line per line break, {@code \n}, {@code \n\r} and {@code \r} each a break; single-line fields
 * cut at their first break), so a replayed event and a live one are the same bytes.
 */
class ReplayWriterTest {

    private static String text(TextEvent... events) {
        StringBuilder out = new StringBuilder();
        for (TextEvent event : events) {
            ReplayWriter.append(out, event);
        }
        return out.toString();
    }

    @Test
    void anEventIsItsIdAndDataFollowedByABlankLine() {
        assertThat(text(new TextEvent(null, "e:1", "hello"), new TextEvent(null, "e:2", "")))
                .isEqualTo("id:e:1\ndata:hello\n\nid:e:2\ndata:\n\n");
    }

    @Test
    void aNamedEventCarriesItsName() {
        assertThat(text(new TextEvent("cable-subscribed", "0", "{}"))).isEqualTo("id:0\nevent:cable-subscribed\ndata:{}\n\n");
    }

    @Test
    void eachLineBreakOfTheDataStartsADataLine() {
        assertThat(text(new TextEvent(null, "e:3", "a\nb\n\rc\rd\r\ne")))
                .isEqualTo("id:e:3\ndata:a\ndata:b\ndata:c\ndata:d\ndata:\ndata:e\n\n");
        assertThat(text(new TextEvent(null, null, "x\n"))).isEqualTo("data:x\ndata:\n\n");
    }

    @Test
    void singleLineFieldsAreCutAtTheirFirstLineBreak() {
        assertThat(text(new TextEvent("a\nb", "1\r2", "d"))).isEqualTo("id:1\nevent:a\ndata:d\n\n");
    }
}
