package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jboss.logmanager.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * A broadcast's log MDC reaches this node's listeners when the delivery is in-process (the memory adapter), in the
 * core alone: each message's listener runs with the MDC of the thread that broadcast it and nothing else, not the
 * entries of an earlier message, not those the listener added itself, not those its drain thread inherited from the
 * thread that started it (the log manager's MDC is inheritable), not even after a listener that threw.
 */
class BroadcastContextTest {

    private static final long WAIT_SECONDS = 60;

    private final CableEngine engine = CableEngine.create(config(), MemoryTransport.factory(config()));

    @AfterEach
    void stop() {
        MDC.clear();
        engine.stop();
    }

    @Test
    void eachListenerCallSeesItsOwnBroadcastsMdcAndNothingElse() throws Exception {
        engine.start();
        Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();
        Map<String, Thread> threads = new ConcurrentHashMap<>();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch all = new CountDownLatch(4);
        engine.subscribe("orders", message -> {
            seen.put(message.text(), MDC.copy());
            threads.put(message.text(), Thread.currentThread());
            MDC.put("added-by-listener", message.text());
            all.countDown();
            if (message.text().equals("first")) {
                // Holds the drain, so the next messages run on this same thread after this call.
                awaitQuietly(release);
            }
            if (message.text().equals("failing")) {
                throw new IllegalStateException("a listener that fails");
            }
        });

        // The first message starts the mailbox's drain thread from here, which inherits {request=r1}.
        MDC.put("request", "r1");
        engine.broadcast("orders", "first");
        MDC.put("request", "r2");
        MDC.put("user", "alice");
        engine.broadcast("orders", "failing");
        MDC.clear();
        engine.broadcast("orders", "without");
        MDC.put("request", "r4");
        engine.broadcast("orders", "last");
        assertThat(MDC.copy()).as("the broadcasting thread's MDC is its own still").isEqualTo(Map.of("request", "r4"));
        release.countDown();
        assertThat(all.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("all four delivered").isTrue();

        assertThat(seen.get("first")).isEqualTo(Map.of("request", "r1"));
        assertThat(seen.get("failing")).isEqualTo(Map.of("request", "r2", "user", "alice"));
        assertThat(seen.get("without")).as("no MDC at the broadcast: none, after a listener that threw").isEmpty();
        assertThat(seen.get("last")).isEqualTo(Map.of("request", "r4"));
        assertThat(threads.values()).as("all on one drain thread, the case where entries could leak").hasSize(4)
                .containsOnly(threads.get("first"));
    }

    /**
     * After the listener's call the MDC is empty: its failure is reported on the same thread without the broadcast's
     * entries or the listener's own (the report is the cable's, not the request's).
     */
    @Test
    void theMdcIsEmptyAfterTheListenersCall() throws Exception {
        Map<String, Map<String, String>> atReport = new ConcurrentHashMap<>();
        CountDownLatch reported = new CountDownLatch(1);
        Delivery mailbox = Delivery.mailbox(message -> {
            MDC.put("added-by-listener", "yes");
            throw new IllegalStateException("a listener that fails");
        }, 8, (message, failure) -> {
            atReport.put(message.text(), MDC.copy());
            reported.countDown();
        });
        MDC.put("request", "r1");
        BroadcastContext.whileDispatching(BroadcastContext.capture(),
                () -> mailbox.offer(new CableMessage(1, "orders", "one".getBytes(StandardCharsets.UTF_8), false)));
        assertThat(reported.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(atReport.get("one")).isEmpty();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static CableRuntimeConfig config() {
        return new SmallRyeConfigBuilder().addDiscoveredConverters().withMapping(CableRuntimeConfig.class).build()
                .getConfigMapping(CableRuntimeConfig.class);
    }
}
