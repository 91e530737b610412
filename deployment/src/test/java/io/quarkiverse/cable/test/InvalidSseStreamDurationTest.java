package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The SSE front end validates its own settings (quarkus.cable.sse) at startup, not at the first stream: a stream
 * duration under a second would make every client reconnect, and read its history, more than once a second.
 */
class InvalidSseStreamDurationTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-rest", Version.getVersion())))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.sse.max-stream-duration", "500ms")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.sse.max-stream-duration must be 0 (no limit) or at least 1s"));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }
}
