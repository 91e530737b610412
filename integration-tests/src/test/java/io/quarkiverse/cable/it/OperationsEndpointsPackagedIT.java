package io.quarkiverse.cable.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link OperationsEndpointsTest} against the packaged application (the JVM jar in CI, a native image with -Pnative). */
@QuarkusIntegrationTest
class OperationsEndpointsPackagedIT extends OperationsEndpointsTest {
}
