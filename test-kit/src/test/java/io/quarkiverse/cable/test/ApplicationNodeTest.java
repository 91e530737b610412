package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * What a node is refused with before a process starts. Starting real nodes is integration-tests' (CableNode, which the
 * multi-node ITs use, starts its processes through ApplicationNode).
 */
class ApplicationNodeTest {

    @Test
    void aMissingJarSaysToPackageFirst() {
        assertThatThrownBy(() -> ApplicationNode.builder().jar(Path.of("target", "no-such", "quarkus-run.jar"))
                .config(Map.of("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1/x")).start())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("No application jar at")
                .hasMessageContaining("package the application first");
    }

    @Test
    void anInMemoryH2DatabaseCannotBeShared() {
        assertThatThrownBy(() -> ApplicationNode.sameDatabase(config(Map.of("quarkus.datasource.jdbc.url",
                "jdbc:h2:mem:test;DB_CLOSE_DELAY=-1")))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lives inside one process");
        assertThatThrownBy(() -> ApplicationNode.sameDatabase(config(Map.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("No quarkus.datasource.jdbc.url");
    }

    @Test
    void theNodeTakesTheApplicationsDatasource() {
        assertThat(ApplicationNode.sameDatabase(config(Map.of("quarkus.datasource.jdbc.url",
                "jdbc:postgresql://127.0.0.1:5432/app", "quarkus.datasource.username", "app",
                "quarkus.datasource.password", "secret", "quarkus.http.port", "8080"))))
                .containsExactly(Map.entry("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:5432/app"),
                        Map.entry("quarkus.datasource.username", "app"),
                        Map.entry("quarkus.datasource.password", "secret"));
    }

    private static org.eclipse.microprofile.config.Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }
}
