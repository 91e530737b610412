package io.quarkiverse.cable.it.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.cable.it.CableNode;

/**
 * Patroni with etcd, two members (src/test/scripts/topology/patroni.sh, ttl 10 / loop_wait 2): two cable nodes on the
 * multi-host URL, producers through both, a live client on each node and a client that leaves mid-burst. The leader
 * is SIGKILLed whole (a host crash: Patroni fails over) or only its postmaster (Patroni restarts it in place, on a new
 * timeline). A benchmark-style run outside CI (topologies.adoc, "Patroni"): it runs only with
 * {@code -Dcable.topology.patroni=true}, and prints the figures the page quotes.
 */
class PatroniFailoverIT {

    private static final TopologyScript PATRONI = new TopologyScript("patroni");

    private static final String URL = "jdbc:postgresql://127.0.0.1:5443,127.0.0.1:5444/cable?targetServerType=primary";
    // retry-timeout 30 s: a batch outlives Patroni's failover (about ttl, 10 s), so that a broadcast during the fault
    // waits for the new leader instead of failing at the default 10 s.
    private static final Map<String, String> NODE_CONFIG = Map.of("quarkus.cable.history.max-replay", "100000",
            "quarkus.cable.health.details", "true", "quarkus.cable.writer.retry-timeout", "30s");
    private static final int PRODUCERS = 4;

    @AfterAll
    static void stopCluster() throws Exception {
        if (Boolean.getBoolean("cable.topology.patroni")) {
            PATRONI.run("stop", 180);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "kill-leader", "kill-leader-postgres" })
    void theCableFollowsPatronisLeader(String fault) throws Exception {
        assumeTrue(Boolean.getBoolean("cable.topology.patroni"), "a benchmark-style run outside CI (topologies.adoc,"
                + " \"Patroni\"): run it with -Dcable.topology.patroni=true");
        // Each case breaks its cluster: each gets a fresh one.
        PATRONI.run("setup", 300);
        String leaderBefore = PATRONI.run("leader", 30).trim();
        String room = "patroni-" + UUID.randomUUID();
        String channel = "chat:" + room;
        List<CableNode> nodes = new ArrayList<>();
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS);
        List<ExtClient> clients = new ArrayList<>();
        try {
            Map<String, String> urls = new LinkedHashMap<>();
            urls.put("patroni-a", URL);
            urls.put("patroni-b", URL);
            List<CableNode> started = Nodes.start(nodes, urls, NODE_CONFIG);
            CableNode a = started.get(0);
            CableNode b = started.get(1);
            ExtClient liveA = ExtClient.subscribe(a.port, room, null, 0);
            ExtClient liveB = ExtClient.subscribe(b.port, room, null, 0);
            ExtClient early = ExtClient.subscribe(a.port, room, null, 0);
            clients.addAll(List.of(liveA, liveB, early));
            await().atMost(Duration.ofSeconds(60)).until(() -> clients.stream()
                    .allMatch(c -> c.saw("confirm_subscription")));

            ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
            // Sent after the kill: only the new leader can have committed them, so every live client must get them.
            ConcurrentLinkedQueue<String> acknowledgedAfterKill = new ConcurrentLinkedQueue<>();
            AtomicBoolean killed = new AtomicBoolean();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong firstAckAfterKill = new AtomicLong();
            AtomicInteger failed = new AtomicInteger();
            for (int p = 0; p < PRODUCERS; p++) {
                CableNode via = p % 2 == 0 ? a : b;
                String producer = "p" + p;
                producers.submit(() -> {
                    for (int n = 0; running.get(); n++) {
                        String payload = producer + "-" + n;
                        boolean after = killed.get();
                        try {
                            HttpResponse<String> response = via.broadcast(channel, "{\"m\":\"" + payload + "\"}");
                            if (response.statusCode() == 202) {
                                acknowledged.add(payload);
                                if (after) {
                                    firstAckAfterKill.compareAndSet(0, System.nanoTime());
                                    acknowledgedAfterKill.add(payload);
                                }
                            } else {
                                failed.incrementAndGet();
                            }
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                    }
                    return null;
                });
            }

            // The recovering client leaves mid-burst, holding its last position.
            await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.size() >= 300 && early.last() != null);
            early.close();
            ExtClient.Received resumeFrom = early.last();
            await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.size() >= 600);

            PATRONI.run(fault, 60);
            long killedAt = System.nanoTime();
            killed.set(true);
            int acknowledgedBeforeKill = acknowledged.size();
            int failedBeforeKill = failed.get();
            // A new leader: another member (failover), or the same one on a new timeline (restart in place).
            String[] leaderAfter = new String[1];
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200)).until(() -> {
                leaderAfter[0] = PATRONI.run("leader", 30).trim();
                return !leaderAfter[0].isEmpty() && !leaderAfter[0].equals(leaderBefore);
            });
            long newLeaderAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(180)).until(() -> acknowledgedAfterKill.size() >= 100);
            running.set(false);
            producers.shutdown();
            assertThat(producers.awaitTermination(180, TimeUnit.SECONDS)).isTrue();
            int failedDuringFault = failed.get() - failedBeforeKill;

            // A last message through each node: once a live client has both, it has everything it will get.
            assertThat(a.broadcast(channel, "{\"m\":\"end-a\"}").statusCode()).isEqualTo(202);
            assertThat(b.broadcast(channel, "{\"m\":\"end-b\"}").statusCode()).isEqualTo(202);
            for (ExtClient live : List.of(liveA, liveB)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> payloads(live).containsAll(List.of("end-a", "end-b")));
            }

            ExtClient recovering = ExtClient.subscribe(a.port, room, resumeFrom.epoch(), resumeFrom.offset());
            clients.add(recovering);
            await().atMost(Duration.ofSeconds(60)).until(() -> recovering.saw("confirm_history")
                    || recovering.saw("reject_history"));
            // The doorbell found the new leader again through the multi-host URL.
            for (CableNode node : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(120)).until(() -> NodeReadings.health(node)
                        .contains("\"doorbell\":\"connected\""));
            }

            Set<String> stored = storedPayloads(channel);
            long missingOnLeader = acknowledged.stream().filter(m -> !stored.contains(m)).count();
            System.out.printf("[topology] patroni %s: leader %s -> %s after %d ms, first acknowledged broadcast %d ms"
                    + " after the kill, first delivery after the kill node A %d ms node B %d ms, acknowledged before"
                    + " the kill=%d after=%d, broadcasts failed during the fault=%d, acknowledged messages missing on"
                    + " the new leader=%d, recovering client got %s%n", fault, leaderBefore, leaderAfter[0],
                    millis(newLeaderAt - killedAt), millis(firstAckAfterKill.get() - killedAt),
                    millis(firstDeliveryAfter(liveA, killedAt) - killedAt),
                    millis(firstDeliveryAfter(liveB, killedAt) - killedAt), acknowledgedBeforeKill,
                    acknowledgedAfterKill.size(), failedDuringFault, missingOnLeader,
                    recovering.saw("reject_history") ? "reject_history" : "confirm_history");

            // Never two payloads at one position of one epoch, whichever client saw them.
            Map<String, String> byPosition = new HashMap<>();
            for (ExtClient client : clients) {
                for (ExtClient.Received message : client.messages) {
                    String key = message.epoch() + "/" + message.offset();
                    String earlier = byPosition.putIfAbsent(key, message.payload());
                    assertThat(earlier == null || earlier.equals(message.payload()))
                            .as("position %s carried %s and %s", key, earlier, message.payload()).isTrue();
                }
            }
            for (ExtClient live : List.of(liveA, liveB)) {
                assertThat(new HashSet<>(payloads(live))).as("acknowledged after the kill, missing on a live client")
                        .containsAll(acknowledgedAfterKill);
            }
            // A new timeline renews every epoch, also when Patroni brought the same member back.
            assertThat(recovering.saw("reject_history")).as("a resume from the epoch before the %s", fault).isTrue();
        } finally {
            clients.forEach(ExtClient::close);
            producers.shutdownNow();
            CableNode.closeAll(nodes);
        }
    }

    /** When a client first received a message after {@code nanos}; {@code nanos} itself when it never did. */
    private static long firstDeliveryAfter(ExtClient client, long nanos) {
        return client.messages.stream().mapToLong(ExtClient.Received::nanos).filter(t -> t > nanos).findFirst()
                .orElse(nanos);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    // The same query as PostgresFailoverIT.storedPayloads, on this cluster's URL.
    /** What the leader holds for the channel (the payloads' "m"). */
    private static Set<String> storedPayloads(String channel) throws Exception {
        Set<String> stored = new HashSet<>();
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "postgres");
                PreparedStatement select = connection.prepareStatement(
                        "SELECT convert_from(payload, 'UTF8')::json->>'m' FROM cable_messages WHERE channel = ?")) {
            select.setString(1, channel);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    stored.add(rows.getString(1));
                }
            }
        }
        return stored;
    }

    private static List<String> payloads(ExtClient client) {
        return client.messages.stream().map(ExtClient.Received::payload).toList();
    }
}
