package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.Presence;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One identity cannot wedge a node's presence: 4,000 sessions of one presence id joining and ending at once (what
 * 4,000 connections of one user opening and closing do with {@code presence.identity-events}, each one a join and an
 * end) find at most {@code presence.max-pending-per-id} (16) of their changes waiting; the rest are refused at once,
 * counted as {@code cable.limits.refusals{reason="presence_queue"}}, storing nothing. Another user joining and leaving
 * meanwhile keeps its p99 within three times its own baseline (floored at 100 ms). Before the bound every one of
 * them queued a transaction behind four permits and the other user's join waited for all of them (146-160 s with
 * 36,000 in an outside run); stopping the node waited too.
 */
@QuarkusTest
@DatabaseIndependent
public class PresenceFloodTest {

    private static final int FLOOD = 4_000;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void oneIdFloodingJoinsKeepsNoOtherIdWaiting() throws Exception {
        Presence presence = engine.presence();
        String calmRoom = "chat:" + Channels.unique("calm");
        String floodRoom = "chat:" + Channels.unique("flood");
        long baseline = joinAndLeaveP99(presence, calmRoom, "calm-baseline");

        long refusedBefore = engine.stats().refusals(CableStats.Refusal.PRESENCE_QUEUE);
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger joined = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(FLOOD);
        long underAttack;
        try (ExecutorService attackers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < FLOOD; i++) {
                String session = "flood-session-" + i;
                attackers.execute(() -> {
                    try {
                        started.await();
                        presence.join(floodRoom, "mallory", session, null);
                        joined.incrementAndGet();
                    } catch (CableException.QueueFull e) {
                        refused.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        presence.disconnected(session);
                        done.countDown();
                    }
                });
            }
            started.countDown();
            underAttack = joinAndLeaveP99(presence, calmRoom, "calm-under-attack");
            assertThat(done.await(120, TimeUnit.SECONDS)).as("every flooding session ended").isTrue();
        }
        System.out.printf("PresenceFloodTest: calm p99 baseline %.1f ms, under %d joins of one id %.1f ms;"
                + " %d joined, %d refused%n", baseline / 1e6, FLOOD, underAttack / 1e6, joined.get(), refused.get());

        assertThat(refused.get()).as("the flood was bounded").isPositive();
        assertThat(engine.stats().refusals(CableStats.Refusal.PRESENCE_QUEUE) - refusedBefore)
                .isEqualTo(refused.get());
        double floor = Math.max(baseline / 1e6, AbuseHarness.P99_FLOOR_MILLIS);
        assertThat(underAttack / 1e6).as("calm p99 under the flood, baseline %.1f ms", baseline / 1e6)
                .isLessThanOrEqualTo(3 * floor);
        // Every admitted change was released: the id joins again once its flood is over (a refusal would throw).
        presence.join(floodRoom, "mallory", "after-the-flood", null);
        presence.disconnected("after-the-flood");
    }

    /** The p99 of 20 join-and-leave round trips of one id (each one two transactions), in nanoseconds. */
    private static long joinAndLeaveP99(Presence presence, String room, String id) {
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            presence.join(room, id, id + "-" + i, null);
            presence.leave(room, id, id + "-" + i);
            nanos.add(System.nanoTime() - start);
        }
        Collections.sort(nanos);
        return nanos.get((int) Math.ceil(nanos.size() * 0.99) - 1);
    }
}
