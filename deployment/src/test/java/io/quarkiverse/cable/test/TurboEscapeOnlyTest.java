package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.TurboStreams;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application that only calls TurboStreams' static helper (escaping a note for its page, as the tutorial's first
 * version did) signs no stream name: it starts without a signing key. Before, any reference to TurboStreams counted
 * as Turbo use and startup demanded the key.
 */
class TurboEscapeOnlyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RendersNotes.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory");

    @Inject
    RendersNotes page;

    @Test
    void startsWithoutASigningKey() {
        assertThat(page.render("<b>hi</b> & bye")).isEqualTo("<li>&lt;b&gt;hi&lt;/b&gt; &amp; bye</li>");
    }

    @Singleton
    public static class RendersNotes {
        String render(String note) {
            return "<li>" + TurboStreams.escape(note) + "</li>";
        }
    }
}
