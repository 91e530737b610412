package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A broadcast's log MDC, put by a request on its Vert.x context as Quarkus keeps it, reaches this node's listener when
 * the delivery is in-process (an engine on the memory adapter, in the application), and only that message's call; a
 * broadcast delivered through the database (the application's cable) carries none, on this node too: the poller
 * dispatches what it reads back, on every node alike. A broadcast joined to a transaction carries the MDC of the
 * thread that commits it.
 */
@QuarkusTest
@DatabaseIndependent
public class ListenerMdcTest {

    private static final long WAIT_SECONDS = 60;

    @Inject
    Cable cable;

    @Inject
    CableRuntimeConfig config;

    @Inject
    Vertx vertx;

    @Test
    void anInProcessListenerRunsWithItsBroadcastsMdc() throws Exception {
        CableEngine memory = CableEngine.create(config, MemoryTransport.factory(config));
        memory.start();
        try {
            Map<String, Map<String, Object>> seen = new ConcurrentHashMap<>();
            CountDownLatch both = new CountDownLatch(2);
            memory.subscribe("orders", message -> {
                seen.put(message.text(), MDC.getMap());
                both.countDown();
            });
            broadcastFromARequest(memory, "with", Map.of("request", "r1", "user", "alice"));
            broadcastFromARequest(memory, "without", Map.of());
            assertThat(both.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(seen.get("with")).isEqualTo(Map.of("request", "r1", "user", "alice"));
            assertThat(seen.get("without")).isEmpty();
        } finally {
            memory.stop();
        }
    }

    /** Joined to a JTA transaction, a broadcast is sent at the commit: with the committing thread's MDC. */
    @Test
    void aTransactionsBroadcastCarriesTheCommittingThreadsMdc() throws Exception {
        CableEngine memory = CableEngine.create(config, MemoryTransport.factory(config));
        memory.start();
        memory.joinTransactions(16);
        try {
            CompletableFuture<Map<String, Object>> seen = new CompletableFuture<>();
            memory.subscribe("orders", message -> seen.complete(MDC.getMap()));
            QuarkusTransaction.requiringNew().run(() -> {
                MDC.put("request", "tx1");
                memory.broadcast("orders", "in a transaction");
                assertThat(seen).as("not sent before the commit").isNotDone();
            });
            assertThat(seen.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(Map.of("request", "tx1"));
        } finally {
            MDC.remove("request");
            memory.stop();
        }
    }

    @Test
    void aBroadcastReadBackFromTheDatabaseCarriesNone() throws Exception {
        String channel = Channels.unique("orders");
        CompletableFuture<Map<String, Object>> seen = new CompletableFuture<>();
        Subscription subscription = cable.subscribe(channel, message -> seen.complete(MDC.getMap()));
        try {
            subscription.confirmed().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
            broadcastFromARequest(cable, channel, "with", Map.of("request", "r1"));
            assertThat(seen.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEmpty();
        } finally {
            subscription.close();
        }
    }

    private void broadcastFromARequest(Cable on, String text, Map<String, String> entries) throws Exception {
        broadcastFromARequest(on, "orders", text, entries);
    }

    /** Broadcasts as a request handler does: on a duplicated Vert.x context, where Quarkus keeps the request's MDC. */
    private void broadcastFromARequest(Cable on, String channel, String text, Map<String, String> entries)
            throws Exception {
        Context request = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        CompletableFuture<Void> stored = new CompletableFuture<>();
        request.runOnContext(ignored -> {
            entries.forEach(MDC::put);
            on.broadcast(channel, text).whenComplete((done, failure) -> {
                if (failure == null) {
                    stored.complete(null);
                } else {
                    stored.completeExceptionally(failure);
                }
            });
        });
        stored.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
}
