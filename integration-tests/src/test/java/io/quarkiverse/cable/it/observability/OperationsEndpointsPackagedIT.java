package io.quarkiverse.cable.it.observability;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link OperationsEndpointsTest} against the packaged application (the JVM jar in CI, a native image with -Pnative). */
@QuarkusIntegrationTest
public class OperationsEndpointsPackagedIT extends OperationsEndpointsTest {
}
