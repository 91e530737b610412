package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.Worker;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A subscription is confirmed (or ended) whatever the poller is doing when it arrives: never left waiting for a poll
 * that only the polling interval would bring, nor queued on a poller that has stopped.
 * <p>
 * The poller is woken by unparking its virtual thread. JDBC drivers and pools park that same thread while they wait
 * (socket reads, locks); an unpark that arrives then only ends that wait, and the poller, back from its query, slept
 * a whole polling interval with the new subscription queued. Here the interval is an hour and the poller's poll query
 * is held at a gate (a latch: it parks the thread like a slow database does) while a subscription arrives.
 */
@QuarkusTest
public class SubscriptionConfirmationTest {

    private static final String NAME = "confirm-check";
    private static final int ROUNDS = 10;
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void subscriptionArrivingWhileThePollerWaitsOnTheDatabaseIsConfirmedAtOnce() throws Exception {
        List<Integer> unconfirmed = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            PollGate gate = new PollGate();
            CableEngine engine = engine(gate.wrap(dataSource));
            engine.start();
            try {
                String busy = Channels.unique("confirm-busy");
                engine.subscribe(busy, new Collector()).confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
                Thread poller = engine.transport().status().workers().stream().filter(w -> w.role().equals("poller"))
                        .map(Worker::thread).findFirst().orElseThrow();

                // A broadcast wakes the poller; its poll query stops at the gate, the thread parked inside it.
                gate.arm();
                engine.broadcast(busy, "round " + round).toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertThat(gate.entered.await(30, TimeUnit.SECONDS)).as("the poll reached the gate").isTrue();
                await().atMost(BOUND).until(() -> poller.getState() == Thread.State.WAITING);

                Subscription late = engine.subscribe(Channels.unique("confirm-late"), new Collector());
                gate.release.countDown();
                try {
                    late.confirmed().toCompletableFuture().get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    unconfirmed.add(round);
                }
            } finally {
                gate.release.countDown();
                engine.stop();
            }
        }
        assertThat(unconfirmed).as("rounds (of %d) whose subscription, queued while the poller waited on the database,"
                + " was not confirmed within %s", ROUNDS, BOUND).isEmpty();
    }

    @Test
    void subscriptionArrivingAfterTheEngineStoppedIsEndedNotLeftWaiting() throws Exception {
        CableEngine engine = engine(dataSource);
        engine.start();
        engine.subscribe(Channels.unique("confirm-before-stop"), new Collector()).confirmed().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        engine.stop();

        Subscription late = engine.subscribe(Channels.unique("confirm-after-stop"), new Collector());
        assertThat(late.confirmed().toCompletableFuture()).failsWithin(BOUND)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(CableException.Stopped.class);
        assertThat(late.closed().toCompletableFuture()).isCompletedExceptionally();
        assertThat(engine.channelCount()).isZero();
    }

    private CableEngine engine(DataSource source) {
        // An hour: only the wake-up can start a subscription within the test's bounds.
        return DatabaseNodes.node(NAME, () -> source, SqlDialect.forDbKind(dbKind),
                CableConfigs.with(), CableConfigs.database("quarkus.cable.polling-interval", "1h",
                        "quarkus.cable.wakeup.mode", "none"));
    }

    /** Holds the poller's next statement (its poll query) until released, the poller's thread parked in a latch. */
    private static final class PollGate {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private volatile boolean armed;

        void arm() {
            armed = true;
        }

        DataSource wrap(DataSource target) {
            return proxy(DataSource.class, target, (method, result) -> result instanceof Connection connection
                    ? proxy(Connection.class, connection, (inner, statement) -> statement)
                    : result);
        }

        private interface After {
            Object apply(java.lang.reflect.Method method, Object result);
        }

        private <T> T proxy(Class<T> type, T target, After after) {
            InvocationHandler handler = (self, method, args) -> {
                if (type == Connection.class && method.getName().equals("prepareStatement") && armed
                        && Thread.currentThread().getName().equals("cable-poller-" + NAME)) {
                    armed = false;
                    entered.countDown();
                    release.await();
                }
                try {
                    return after.apply(method, method.invoke(target, args));
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, handler));
        }
    }
}
