package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.Worker;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An engine started and stopped over and over (as dev-mode restarts do) leaves nothing behind: after each stop its
 * writer, poller, trimmer, presence and wake-up threads have ended, its subscriptions are closed, and at the end a full thread
 * dump
 * (virtual threads included) holds no thread of it. Each round delivers a broadcast, so every round really ran.
 */
@OncePerServer
@QuarkusTest
public class EngineRestartTest {

    private static final int ROUNDS = 10;
    private static final String NAME = "restart-check";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CableRuntimeConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void noThreadOrSubscriptionOutlivesItsEngine() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            CableEngine engine = DatabaseNodes.node(NAME, () -> dataSource, SqlDialect.forDbKind(dbKind), config);
            engine.start();
            List<Thread> workers = engine.transport().status().workers().stream().map(Worker::thread).toList();
            // Writer, poller, trimmer and presence upkeep, plus the wake-up's threads where the database has one
            // (PostgreSQL: doorbell listener and ringer; MariaDB/MySQL: the probe; H2: none).
            assertThat(workers).as("round %d: writer, poller, trimmer, presence and wake-up", round)
                    .hasSize(4 + engine.transport().status().wakeup().workers().size());
            assertThat(threadsNamed(NAME)).as("round %d: every live thread of the engine is one of its workers", round)
                    .containsExactlyInAnyOrderElementsOf(workers.stream().map(Thread::getName).toList());
            String channel = Channels.unique("restart");
            Collector collector = new Collector();
            Subscription subscription = engine.subscribe(channel, collector);
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            engine.broadcast(channel, "round " + round).toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(1);

            engine.stop();
            for (Thread worker : workers) {
                assertThat(worker.isAlive()).as("round %d: %s ended", round, worker.getName()).isFalse();
            }
            assertThat(subscription.closed().toCompletableFuture()).isCompletedExceptionally();
            assertThat(engine.channelCount()).isZero();
        }
        assertThat(threadsNamed(NAME)).as("no thread of a stopped engine remains").isEmpty();
    }

    /** Names of live threads containing {@code part}, platform and virtual, from a JSON thread dump. */
    private static List<String> threadsNamed(String part) throws Exception {
        Path dump = Files.createTempDirectory("threads").resolve("dump.json");
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(dump.toString(),
                HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        String json = Files.readString(dump, StandardCharsets.UTF_8);
        Files.delete(dump);
        Files.delete(dump.getParent());
        List<String> names = new ArrayList<>();
        Matcher matcher = Pattern.compile("\"name\": \"([^\"]*)\"").matcher(json);
        while (matcher.find()) {
            if (matcher.group(1).contains(part)) {
                names.add(matcher.group(1));
            }
        }
        return names;
    }
}
