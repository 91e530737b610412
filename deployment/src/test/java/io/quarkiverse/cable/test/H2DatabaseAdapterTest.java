package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.entity.CableChannelEntity;
import io.quarkiverse.cable.entity.CableMessageEntity;
import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.DatabaseTransport;
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
    CableEngine engine;

    @Test
    void databaseAdapterWithNamedVirtualThreads() throws Exception {
        assertThat(cable.adapter()).isEqualTo("database");
        DatabaseTransport transport = (DatabaseTransport) engine.transport();
        assertThat(transport.writer().thread().getName()).isEqualTo("cable-writer-default");
        assertThat(transport.writer().thread().isVirtual()).isTrue();
        assertThat(transport.poller().thread().getName()).isEqualTo("cable-poller-default");
        assertThat(transport.poller().thread().isVirtual()).isTrue();

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
    }
}
