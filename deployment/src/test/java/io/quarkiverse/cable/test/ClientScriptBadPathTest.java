package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A client path without its leading slash fails startup naming the property. */
class ClientScriptBadPathTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.client.path", "cable.js")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.client.path must start with /, was cable.js"));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }
}
