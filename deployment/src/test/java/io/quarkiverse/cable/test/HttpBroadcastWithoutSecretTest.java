package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** An enabled HTTP publish endpoint without a secret would let anyone broadcast: startup fails naming the property. */
class HttpBroadcastWithoutSecretTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.enabled", "true")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.http-broadcast.secret is required when"
                            + " quarkus.cable.http-broadcast.enabled=true"));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }
}
