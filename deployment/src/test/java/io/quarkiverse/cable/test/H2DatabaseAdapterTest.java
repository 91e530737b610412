package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.entity.CableChannelEntity;
import io.quarkiverse.cable.entity.CableMessageEntity;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Worker;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/** With a JDBC datasource the database adapter is chosen; its threads and entities are in place. */
class H2DatabaseAdapterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Received.class))
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:cable-adapter;DB_CLOSE_DELAY=-1")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "validate");

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    Instance<CableEngine> unqualifiedEngine;

    @Test
    void databaseAdapterWithNamedPlatformThreads() throws Exception {
        assertThat(cable.adapter()).isEqualTo("database");
        assertThat(engine.transport().status().workers()).extracting(Worker::thread).extracting(Thread::getName)
                .contains("cable-writer-default", "cable-poller-default");
        // Platform daemon threads: on the path of every message, they must not wait for a virtual thread's carrier.
        assertThat(engine.transport().status().workers()).extracting(Worker::thread)
                .allMatch(thread -> !thread.isVirtual() && thread.isDaemon());
        assertThat(unqualifiedEngine.isUnsatisfied()).as("the engine is internal: applications inject Cable").isTrue();

        Received received = new Received();
        try (Subscription subscription = cable.subscribe("chat:1", received)) {
            subscription.confirmed().toCompletableFuture().get(10, TimeUnit.SECONDS);
            cable.broadcast("chat:1", "hello").toCompletableFuture().get(10, TimeUnit.SECONDS);
            received.awaitCount(1);
            assertThat(received.payloads).containsExactly("hello");
        }

        CableChannelEntity channel = QuarkusTransaction.requiringNew().call(() -> CableChannelEntity.findByName("chat:1"));
        assertThat(channel.lastPosition).isEqualTo(1);
        List<CableMessageEntity> latest = QuarkusTransaction.requiringNew()
                .call(() -> CableMessageEntity.latest("chat:1", 5));
        assertThat(latest).singleElement().satisfies(m -> {
            assertThat(new String(m.payload)).isEqualTo("hello");
            assertThat(m.streamPosition).isEqualTo(1);
            assertThat(m.id).isEqualTo(channel.lastMessageId);
        });

        // The entities are read-only subselects; the one change they offer is deleting old messages.
        assertThat(QuarkusTransaction.requiringNew().call(() -> CableMessageEntity.deleteOlderThan(
                LocalDateTime.now(ZoneOffset.UTC).minusDays(1)))).as("nothing that old").isZero();
        assertThat(QuarkusTransaction.requiringNew().call(() -> CableMessageEntity.deleteOlderThan(
                LocalDateTime.now(ZoneOffset.UTC).plusDays(1)))).isEqualTo(1);
        assertThat(QuarkusTransaction.requiringNew().call(() -> CableMessageEntity.latest("chat:1", 5))).isEmpty();
    }
}
