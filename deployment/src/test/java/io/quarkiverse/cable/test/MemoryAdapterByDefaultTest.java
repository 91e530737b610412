package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkus.test.QuarkusUnitTest;

/** Without a datasource the cable falls back to the in-process adapter, with the same guarantees in one JVM. */
class MemoryAdapterByDefaultTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Received.class))
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.active", "false")
            .overrideConfigKey("quarkus.cable.datasource", "none-here")
            .overrideConfigKey("quarkus.devservices.enabled", "false");

    @Inject
    Cable cable;

    @Test
    void deliversInOrderAndNeverReplaysHistory() throws Exception {
        assertThat(cable.adapter()).isEqualTo("memory");
        cable.broadcast("room", "before").toCompletableFuture().get(10, TimeUnit.SECONDS);

        Received received = new Received();
        try (Subscription subscription = cable.subscribe("room", received)) {
            subscription.confirmed().toCompletableFuture().get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 100; i++) {
                cable.broadcast("room", "m" + i);
            }
            cable.broadcast("other", "not for room");
            received.awaitCount(100);
            assertThat(received.payloads).hasSize(100).first().isEqualTo("m0");
            assertThat(received.payloads).last().isEqualTo("m99");
            assertThat(received.payloads).doesNotContain("before", "not for room");
        }
    }
}
