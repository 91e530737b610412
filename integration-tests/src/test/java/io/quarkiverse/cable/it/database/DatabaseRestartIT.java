package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.Account;
import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.FaultPostgres;
import io.quarkiverse.cable.it.RoomClients;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.Vertx;

/**
 * The database goes away while two nodes (separate processes) broadcast: a PostgreSQL cluster of the test's own
 * (port 5433, see fault-postgres.sh) is stopped long enough for broadcasts to exhaust the writer's retry window, then
 * started again; then every session is terminated with pg_terminate_backend while broadcasts are in flight.
 * <p>
 * Nobody restarts anything: the writers and pollers recover by themselves. Every broadcast answered 202 (committed)
 * reaches every client of its channel exactly once and in producer order; every broadcast that could not be stored
 * within {@code quarkus.cable.writer.retry-timeout} fails with StorageFailed (HTTP 500) and is delivered to nobody; a
 * broadcast whose commit was cut off with the connection fails with CommitUnknown (HTTP 504) and reaches each client
 * at most once, in order; no broadcast fails any other way. Readiness goes DOWN while the database is away and back UP after.
 */
public class DatabaseRestartIT {

    private static final int ROOMS = 4;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Map<String, String> NODE_CONFIG = Map.of(
            "quarkus.cable.writer.retry-timeout", "3s",
            "quarkus.datasource.jdbc.acquisition-timeout", "2s");

    @Test
    void broadcastsSurviveARestartAndKilledSessions() throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql"), "the restartable cluster is PostgreSQL (-Pdb-postgresql)");
        assumeTrue(FaultPostgres.available(), "needs the PostgreSQL cluster tools (pg_createcluster, pg_ctlcluster)");
        FaultPostgres.setup();
        List<CableNode> nodes = new ArrayList<>();
        RoomClients clients = null;
        Vertx vertx = Vertx.vertx();
        ExecutorService producers = Executors.newFixedThreadPool(4);
        AtomicBoolean producing = new AtomicBoolean(true);
        try {
            CableNode a = CableNode.start("restart-a", FaultPostgres.URL, NODE_CONFIG);
            nodes.add(a);
            CableNode b = CableNode.start("restart-b", FaultPostgres.URL, NODE_CONFIG);
            nodes.add(b);
            clients = RoomClients.connect(vertx, "restart", ROOMS, nodes);
            List<String> rooms = clients.rooms();

            Map<String, Set<String>> committed = new ConcurrentHashMap<>();
            rooms.forEach(room -> committed.put(room, ConcurrentHashMap.newKeySet()));
            Set<String> storageFailed = ConcurrentHashMap.newKeySet();
            Set<String> commitUnknown = ConcurrentHashMap.newKeySet();
            List<String> otherFailures = new CopyOnWriteArrayList<>();
            AtomicInteger committedCount = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                CableNode node = p < 3 ? a : b;
                String producer = "p" + p;
                int offset = p;
                running.add(producers.submit(() -> {
                    for (int seq = 0; producing.get(); seq++) {
                        String room = rooms.get((seq + offset) % ROOMS);
                        String payload = producer + "|" + seq;
                        HttpResponse<String> response = node.broadcast("room:" + room, payload);
                        if (response.statusCode() == 202) {
                            committed.get(room).add(payload);
                            committedCount.incrementAndGet();
                        } else if (response.statusCode() == 500 && response.body().contains("retry-timeout")) {
                            storageFailed.add(payload);
                        } else if (response.statusCode() == 504 && response.body().contains("retry-timeout")) {
                            commitUnknown.add(payload);
                        } else {
                            otherFailures.add(payload + " -> " + response.statusCode() + " " + response.body());
                        }
                    }
                    return null;
                }));
            }

            await().atMost(WAIT).until(() -> committedCount.get() >= 200);
            FaultPostgres.stop();
            try {
                await().atMost(WAIT).until(() -> a.readyStatus() == 503 && b.readyStatus() == 503);
                await().atMost(WAIT).until(() -> !storageFailed.isEmpty() || !commitUnknown.isEmpty());
            } finally {
                FaultPostgres.start();
            }
            await().atMost(WAIT).until(() -> a.readyStatus() == 200 && b.readyStatus() == 200);
            int afterRestart = committedCount.get();
            await().atMost(WAIT).until(() -> committedCount.get() >= afterRestart + 200);

            int terminated = FaultPostgres.terminateSessions();
            int afterKill = committedCount.get();
            await().atMost(WAIT).until(() -> committedCount.get() >= afterKill + 200);
            await().atMost(WAIT).until(() -> a.readyStatus() == 200 && b.readyStatus() == 200);

            producing.set(false);
            for (Future<?> future : running) {
                future.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            for (String room : rooms) {
                assertThat(b.broadcast("room:" + room, "end").statusCode()).isEqualTo(202);
            }
            Account account = new Account();
            for (String room : rooms) {
                for (WsClient client : clients.byRoom.get(room)) {
                    await().atMost(WAIT).until(() -> client.received.contains("end"));
                    account.check(room, client.received, committed.get(room), commitUnknown);
                }
            }
            System.out.printf("DatabaseRestartIT: committed %d, failed with StorageFailed %d, with CommitUnknown %d,"
                    + " other failures %d, sessions terminated %d; %s%n", committedCount.get(), storageFailed.size(),
                    commitUnknown.size(), otherFailures.size(), terminated, account);
            assertThat(otherFailures).as("no broadcast fails other than with StorageFailed or CommitUnknown").isEmpty();
            assertThat(storageFailed.size() + commitUnknown.size()).isPositive();
            assertThat(terminated).isPositive();
            assertThat(account.clean()).as(account.toString()).isTrue();
            assertThat(account.delivered).isEqualTo(2L * committedCount.get() + account.inDoubtDelivered);
            for (CableNode node : nodes) {
                assertThat(node.process.isAlive()).as(node.name + " survives").isTrue();
            }
        } finally {
            producing.set(false);
            producers.shutdownNow();
            FaultPostgres.start();
            if (clients != null) {
                clients.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            CableNode.closeAll(nodes);
        }
    }
}
