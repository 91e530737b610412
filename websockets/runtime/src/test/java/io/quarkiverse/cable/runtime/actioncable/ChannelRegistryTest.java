package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** What the log line of a subscription to an unknown channel lists: the known names, the closest first. */
class ChannelRegistryTest {

    private final ChannelRegistry registry = new ChannelRegistry(Map.of("ChatChannel", String.class.getName(),
            "ChartChannel", String.class.getName(), "TodoChannel", String.class.getName(), "Turbo::StreamsChannel",
            String.class.getName()), Map.of(), false);

    @Test
    void theClosestNamesComeFirstIgnoringCaseThenAlphabetically() {
        assertThat(registry.namesClosestTo("ChatChanel")).containsExactly("ChatChannel", "ChartChannel", "TodoChannel",
                "Turbo::StreamsChannel");
        assertThat(registry.namesClosestTo("chartchannel")).startsWith("ChartChannel", "ChatChannel");
        // Equally far: alphabetical.
        assertThat(registry.namesClosestTo("")).containsExactly("ChatChannel", "TodoChannel", "ChartChannel",
                "Turbo::StreamsChannel");
    }

    @Test
    void editDistance() {
        assertThat(ChannelRegistry.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(ChannelRegistry.distance("", "abc")).isEqualTo(3);
        assertThat(ChannelRegistry.distance("abc", "abc")).isZero();
    }
}
