package io.quarkiverse.cable.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link ActionCableEndpointTest} against the packaged application (the JVM jar in CI, a native image with -Pnative). */
@QuarkusIntegrationTest
class ActionCableEndpointPackagedIT extends ActionCableEndpointTest {
}
