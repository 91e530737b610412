package io.quarkiverse.cable.runtime.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** {@code @StreamFrom} templates: the parsing the build-time check and the run-time resolution share. */
class ChannelTemplateTest {

    @Test
    void parametersOfTemplatesAndPaths() {
        assertThat(ChannelTemplate.parameters("room:{room}:{kind}")).containsExactly("room", "kind");
        assertThat(ChannelTemplate.parameters("/shops/{shop}/orders/{kind}")).containsExactly("shop", "kind");
        assertThat(ChannelTemplate.parameters("everyone")).isEmpty();
        assertThat(ChannelTemplate.parameters("{}{a/b}")).as("empty names and slashes are not placeholders").isEmpty();
    }

    @Test
    void resolvesFromTheConnectionsParameters() {
        Map<String, String> path = Map.of("room", "lobby", "kind", "$1\\x");
        assertThat(ChannelTemplate.resolve("room:{room}:{kind}", path::get)).isEqualTo("room:lobby:$1\\x");
        assertThat(ChannelTemplate.resolve("everyone", path::get)).isEqualTo("everyone");
        assertThat(ChannelTemplate.resolve("room:{missing}", path::get)).as("a missing parameter is empty")
                .isEqualTo("room:");
    }
}
