package io.quarkiverse.cable.it.actioncable;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link ActionCableEndpointTest} against the packaged application (the JVM jar in CI, a native image with -Pnative). */
@QuarkusIntegrationTest
public class ActionCableEndpointPackagedIT extends ActionCableEndpointTest {
}
