package io.quarkiverse.cable.it.streams;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link StreamFromEndpointTest} against the packaged application (the JVM jar in CI, a native image with -Pnative). */
@QuarkusIntegrationTest
public class StreamFromEndpointPackagedIT extends StreamFromEndpointTest {
}
