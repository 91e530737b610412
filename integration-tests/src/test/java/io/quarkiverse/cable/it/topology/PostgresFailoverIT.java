package io.quarkiverse.cable.it.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
import io.vertx.core.json.JsonObject;

/**
 * PostgreSQL primary + standby, the standby 20 ms behind (src/test/scripts/topology/pg-replica.sh): two cable nodes
 * on the multi-host URL, producers broadcasting through both, a live client on each node and a recovering client on
 * node A. The primary is SIGKILLed mid-burst and the standby promoted. Every live client must either have every
 * acknowledged message or have been told its history broke (a new epoch), a resume from the old epoch must get
 * reject_history, no (epoch, offset) may ever carry two payloads, and both doorbells must be back on the new primary. Run
 * twice: with asynchronous replication (acknowledged messages may be lost, and clients are
 * told) and with synchronous replication, where no acknowledged message may be missing on the new primary. Prints the
 * figures topologies.adoc quotes.
 */
class PostgresFailoverIT {

    private static final TopologyScript PG_REPLICA = new TopologyScript("pg-replica");

    private static final String URL = "jdbc:postgresql://127.0.0.1:5441,127.0.0.1:5442/cable?targetServerType=primary";
    // Readiness details on: the doorbell's state after the failover is one of them.
    private static final Map<String, String> NODE_CONFIG = Map.of("quarkus.cable.history.max-replay", "100000",
            "quarkus.cable.health.details", "true");
    private static final String RINGS_HEARD = "cable_doorbell_rings_total{direction=\"heard\"}";
    private static final int PRODUCERS = 4;

    @AfterAll
    static void stopCluster() throws Exception {
        PG_REPLICA.run("stop", 180);
    }

    @ParameterizedTest(name = "{0} replication")
    @ValueSource(strings = { "async", "sync" })
    void everyClientHasEveryAcknowledgedMessageOrIsToldItsHistoryBroke(String replication) throws Exception {
        // Each run breaks its cluster (a killed primary, a promoted standby): each gets a fresh one.
        PG_REPLICA.run("setup", 180);
        PG_REPLICA.run(replication, 180);
        String room = "failover-" + UUID.randomUUID();
        String channel = "chat:" + room;
        List<CableNode> nodes = new ArrayList<>();
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS);
        NodeClients js = null;
        try {
            CableNode a = CableNode.start("pgfail-a", URL, NODE_CONFIG);
            nodes.add(a);
            CableNode b = CableNode.start("pgfail-b", URL, NODE_CONFIG);
            nodes.add(b);
            ExtClient live = ExtClient.subscribe(a.port, room, null, 0);
            ExtClient liveOnB = ExtClient.subscribe(b.port, room, null, 0);
            ExtClient early = ExtClient.subscribe(a.port, room, null, 0);
            js = NodeClients.start(a.port, room);
            NodeClients clients = js;
            await().atMost(Duration.ofSeconds(60)).until(() -> live.saw("confirm_subscription")
                    && liveOnB.saw("confirm_subscription") && early.saw("confirm_subscription"));
            await().atMost(Duration.ofSeconds(60)).until(() -> clients.running() && clients.saw("rec", "frame",
                    f -> "confirm_history".equals(f.getString("type"))) && clients.saw("live", "connected", d -> true));

            ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
            // When each acknowledged broadcast was sent (System.nanoTime), for what a live client is promised.
            Map<String, Long> sentAt = new ConcurrentHashMap<>();
            // Broadcasts sent after the kill: they can only have committed on the new primary, so none may be lost.
            ConcurrentLinkedQueue<String> acknowledgedAfterKill = new ConcurrentLinkedQueue<>();
            AtomicBoolean failedOver = new AtomicBoolean();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong firstAckAfterFailoverNanos = new AtomicLong();
            AtomicInteger failedBroadcasts = new AtomicInteger();
            for (int p = 0; p < PRODUCERS; p++) {
                CableNode via = p % 2 == 0 ? a : b;
                String producer = "p" + p;
                producers.submit(() -> {
                    for (int n = 0; running.get(); n++) {
                        String payload = producer + "-" + n;
                        boolean after = failedOver.get();
                        long sent = System.nanoTime();
                        try {
                            HttpResponse<String> response = via.broadcast(channel, "{\"m\":\"" + payload + "\"}");
                            if (response.statusCode() == 202) {
                                sentAt.put(payload, sent);
                                acknowledged.add(payload);
                                if (after) {
                                    firstAckAfterFailoverNanos.compareAndSet(0, System.nanoTime());
                                    acknowledgedAfterKill.add(payload);
                                }
                            } else {
                                failedBroadcasts.incrementAndGet();
                            }
                        } catch (Exception e) {
                            failedBroadcasts.incrementAndGet();
                        }
                    }
                    return null;
                });
            }

            // The recovering client leaves mid-burst, holding its last position.
            await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.size() >= 300 && early.last() != null);
            early.close();
            ExtClient.Received resumeFrom = early.last();
            await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.size() >= 800);

            double heardBeforeA = NodeReadings.metric(a, RINGS_HEARD);
            double heardBeforeB = NodeReadings.metric(b, RINGS_HEARD);
            PG_REPLICA.run("kill-primary", 180);
            long killedAt = System.nanoTime();
            int acknowledgedBeforeKill = acknowledged.size();
            failedOver.set(true);
            PG_REPLICA.run("promote", 180);
            long promotedAt = System.nanoTime();
            // The Node clients are cut once the recovering one is live in the new epoch (a failover always renews
            // every epoch), while the producers go on: @anycable/core then asks for the history after its position in
            // that epoch, @rails/actioncable subscribes afresh.
            String firstEpoch = clients.of("rec", "msg").get(0).json().getString("epoch");
            await().atMost(Duration.ofSeconds(120)).until(() -> clients.running() && clients.saw("rec", "msg",
                    m -> !firstEpoch.equals(m.getString("epoch"))));
            long droppedAt = System.nanoTime();
            clients.drop();
            await().atMost(Duration.ofSeconds(120)).until(() -> {
                NodeClients.Event back = clients.first("live", "connected", d -> d.getBoolean("reconnected"), droppedAt);
                return clients.running() && acknowledgedAfterKill.size() >= 200
                        && clients.first("rec", "frame", f -> "confirm_history".equals(f.getString("type")),
                                droppedAt) != null
                        && back != null && clients.first("live", "msg", m -> true, back.nanos()) != null;
            });
            running.set(false);
            producers.shutdown();
            assertThat(producers.awaitTermination(180, TimeUnit.SECONDS)).isTrue();

            // A last message through each node: once the live client has both, it has everything it will ever get.
            assertThat(b.broadcast(channel, "{\"m\":\"end-b\"}").statusCode()).isEqualTo(202);
            assertThat(a.broadcast(channel, "{\"m\":\"end-a\"}").statusCode()).isEqualTo(202);
            acknowledged.add("end-b");
            acknowledged.add("end-a");
            await().atMost(Duration.ofSeconds(60)).until(() -> payloads(live).containsAll(List.of("end-a", "end-b"))
                    && payloads(liveOnB).containsAll(List.of("end-a", "end-b")));
            await().atMost(Duration.ofSeconds(60)).until(() -> clients.payloads("rec").containsAll(List.of("end-a", "end-b"))
                    && clients.payloads("live").containsAll(List.of("end-a", "end-b")));

            ExtClient recovering = ExtClient.subscribe(a.port, room, resumeFrom.epoch(), resumeFrom.offset());
            await().atMost(Duration.ofSeconds(60)).until(() -> recovering.saw("confirm_history")
                    || recovering.saw("reject_history"));
            boolean rejected = recovering.saw("reject_history");
            if (!rejected) {
                await().atMost(Duration.ofSeconds(60)).until(() -> payloads(recovering).contains("end-a"));
            }
            // The doorbell's LISTEN connection died with the old primary: each node must have reconnected it to the new
            // one (the multi-host URL) and hear the other node's rings again, or cross-node delivery would have waited
            // for polls.
            await().atMost(Duration.ofSeconds(60)).until(() -> NodeReadings.health(a).contains("\"doorbell\":\"connected\"")
                    && NodeReadings.health(b).contains("\"doorbell\":\"connected\""));
            for (CableNode node : List.of(a, b)) {
                assertThat(NodeReadings.metric(node, "cable_doorbell_connects_total"))
                        .as("%s: LISTEN connections opened (1 + reconnects)", node.name).isGreaterThanOrEqualTo(2);
            }
            assertThat(NodeReadings.metric(a, RINGS_HEARD)).as("node A heard rings after the failover")
                    .isGreaterThan(heardBeforeA);
            assertThat(NodeReadings.metric(b, RINGS_HEARD)).as("node B heard rings after the failover")
                    .isGreaterThan(heardBeforeB);

            Set<String> stored = storedPayloads(channel);
            long lostOnTheDatabase = acknowledged.stream().filter(m -> !stored.contains(m)).count();
            System.out.printf("[topology] %s failover: acknowledged messages missing on the new primary=%d,"
                    + " cable_database_lost_messages_total node A=%s node B=%s%n", replication, lostOnTheDatabase,
                    metric(a, "cable_database_lost_messages_total"), metric(b, "cable_database_lost_messages_total"));
            Set<String> receivedLive = new LinkedHashSet<>(payloads(live));
            List<String> lost = acknowledged.stream().filter(m -> !receivedLive.contains(m)).toList();
            System.out.printf("[topology] %s failover: acknowledged before kill=%d, acknowledged after=%d,"
                    + " broadcasts failed during the failover=%d, promote took %d ms, first acknowledged broadcast"
                    + " %d ms after the kill, acknowledged messages the live client never got=%d, recovering client %s%n",
                    replication, acknowledgedBeforeKill, acknowledgedAfterKill.size(), failedBroadcasts.get(),
                    TimeUnit.NANOSECONDS.toMillis(promotedAt - killedAt),
                    TimeUnit.NANOSECONDS.toMillis(firstAckAfterFailoverNanos.get() - killedAt), lost.size(),
                    rejected ? "got reject_history" : "got confirm_history");
            Set<String> sentAfterKill = Set.copyOf(acknowledgedAfterKill);
            System.out.printf("[topology] %s failover: first delivery after the kill on node A %d ms, on node B %d ms%n",
                    replication, firstDeliveryMillis(live, sentAfterKill, killedAt),
                    firstDeliveryMillis(liveOnB, sentAfterKill, killedAt));

            if (replication.equals("sync")) {
                // A commit returned only once the standby had it: the promoted standby has every acknowledged message.
                assertThat(lostOnTheDatabase).as("acknowledged messages missing on the promoted synchronous standby")
                        .isZero();
            }
            // Never two payloads at one position of one epoch, whichever client saw them.
            Map<String, String> byPosition = new HashMap<>();
            for (ExtClient client : List.of(early, live, liveOnB, recovering)) {
                for (ExtClient.Received message : client.messages) {
                    String key = message.epoch() + "/" + message.offset();
                    String earlier = byPosition.putIfAbsent(key, message.payload());
                    assertThat(earlier == null || earlier.equals(message.payload()))
                            .as("position %s carried %s and %s", key, earlier, message.payload()).isTrue();
                }
            }
            // The live client: whatever the failover lost before node A read it is gone for good, and the client can
            // tell (the stream's epoch changed); everything acknowledged after the failover it must have.
            List<String> afterFailover = List.copyOf(acknowledgedAfterKill);
            for (ExtClient client : List.of(live, liveOnB)) {
                Set<String> received = new HashSet<>(payloads(client));
                assertThat(received).as("acknowledged after the failover, missing on a live client")
                        .containsAll(afterFailover);
                List<String> missed = acknowledged.stream().filter(m -> !received.contains(m)).toList();
                if (!missed.isEmpty()) {
                    assertThat(client.messages.stream().map(ExtClient.Received::epoch).distinct().count())
                            .as("a live client lost %s without a new epoch telling it", missed).isGreaterThan(1);
                }
            }
            // The recovering client resumes a position of the epoch before the failover. The cable cannot know what the
            // new primary lacks of that epoch, so every failover renews every epoch and the answer must be a refusal
            // (the code before this check answered confirm_history and then re-used positions: the silent gap).
            Set<String> got = new LinkedHashSet<>(payloads(early));
            got.addAll(payloads(recovering));
            List<String> gap = acknowledged.stream().filter(m -> !got.contains(m)).toList();
            assertThat(rejected).as("a resume from the old epoch got confirm_history (%d acknowledged messages never"
                    + " arrived)", gap.size()).isTrue();
            assertNodeClients(replication, clients, acknowledged, stored, sentAt, droppedAt);
            live.close();
            liveOnB.close();
            recovering.close();
        } finally {
            if (js != null) {
                js.close();
            }
            producers.shutdownNow();
            CableNode.closeAll(nodes);
        }
    }

    /**
     * The real clients, cut and reconnected after the failover. The recovering {@code @anycable/core} client: every
     * acknowledged message exactly once, each producer's in order, consecutive positions within each epoch, across its
     * reconnect (it got {@code confirm_history}, never {@code reject_history}); with asynchronous replication only the
     * acknowledged messages the new primary does not hold may be missing, and the new epoch tells it (with
     * synchronous replication there are none). The live {@code @rails/actioncable} client, per the guarantees of a live
     * subscription (guarantees.adoc, "What exactly once covers"): each message at most once and each producer's in
     * order; after its reconnect, every message sent once it was subscribed again. What was committed while it was
     * away is not promised (a reconnect is a new subscription): counted and printed, not asserted.
     */
    private static void assertNodeClients(String replication, NodeClients clients, Collection<String> acknowledged,
            Set<String> stored, Map<String, Long> sentAt, long droppedAt) {
        List<NodeClients.Event> rec = clients.of("rec", "msg");
        List<String> recPayloads = clients.payloads("rec");
        assertThat(recPayloads).as("@anycable/core: each message once").doesNotHaveDuplicates();
        NodeClients.assertEachProducerInOrder("@anycable/core", recPayloads);
        for (int i = 1; i < rec.size(); i++) {
            JsonObject previous = rec.get(i - 1).json();
            JsonObject message = rec.get(i).json();
            if (previous.getString("epoch").equals(message.getString("epoch"))) {
                assertThat(message.getLong("offset")).as("@anycable/core: position after %s", previous)
                        .isEqualTo(previous.getLong("offset") + 1);
            }
        }
        assertThat(clients.of("rec", "frame").stream().map(e -> e.json().getString("type")))
                .as("@anycable/core: its history was never refused").doesNotContain("reject_history")
                .doesNotContain("reject_subscription");
        assertThat(clients.of("rec", "info").stream().map(e -> e.json().getString("type")))
                .as("@anycable/core: its history was never refused").doesNotContain("history_not_found");
        assertThat(clients.first("rec", "connect", c -> c.getBoolean("reconnect"), droppedAt))
                .as("@anycable/core reconnected after the drop").isNotNull();
        Set<String> recGot = new HashSet<>(recPayloads);
        List<String> recMissing = acknowledged.stream().filter(m -> !recGot.contains(m)).toList();
        if (replication.equals("sync")) {
            assertThat(recMissing).as("@anycable/core: acknowledged messages it never got").isEmpty();
        } else {
            assertThat(recMissing.stream().filter(stored::contains).toList())
                    .as("@anycable/core: acknowledged messages the new primary holds, never delivered").isEmpty();
        }

        List<NodeClients.Event> live = clients.of("live", "msg");
        List<String> livePayloads = clients.payloads("live");
        assertThat(livePayloads).as("@rails/actioncable: each message at most once").doesNotHaveDuplicates();
        NodeClients.assertEachProducerInOrder("@rails/actioncable", livePayloads);
        NodeClients.Event back = clients.first("live", "connected", d -> d.getBoolean("reconnected"), droppedAt);
        assertThat(back).as("@rails/actioncable reconnected after the drop").isNotNull();
        Set<String> liveGot = new HashSet<>(livePayloads);
        List<String> sentOnceBack = acknowledged.stream()
                .filter(m -> sentAt.containsKey(m) && sentAt.get(m) > back.nanos()).toList();
        assertThat(sentOnceBack.stream().filter(m -> !liveGot.contains(m)).toList())
                .as("@rails/actioncable: sent once it was subscribed again, never delivered").isEmpty();
        long missedWhileAway = acknowledged.stream().filter(m -> !liveGot.contains(m)).count();
        long receivedAfterReconnect = live.stream().filter(e -> e.nanos() > back.nanos()).count();
        System.out.printf("[topology] %s failover, real clients: @anycable/core got %d messages (acknowledged and"
                + " missing: %d, each lost by the database), reconnected and recovered its history after the drop;"
                + " @rails/actioncable reconnected %d ms after the drop, got %d messages after it, and missed %d"
                + " acknowledged messages (committed while it was away, or lost by the database)%n", replication,
                rec.size(), recMissing.size(), TimeUnit.NANOSECONDS.toMillis(back.nanos() - droppedAt),
                receivedAfterReconnect, missedWhileAway);
    }

    /** From the kill to the client's first message that was sent after it. */
    private static long firstDeliveryMillis(ExtClient client, Set<String> sentAfterKill, long killedAt) {
        return client.messages.stream().filter(m -> sentAfterKill.contains(m.payload())).findFirst()
                .map(m -> TimeUnit.NANOSECONDS.toMillis(m.nanos() - killedAt)).orElse(-1L);
    }

    /** What the new primary holds for the channel (the payloads' "m"). */
    private static Set<String> storedPayloads(String channel) throws Exception {
        Set<String> stored = new HashSet<>();
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
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

    /** One series of a node's Prometheus scrape, or "absent". */
    private static String metric(CableNode node, String name) throws Exception {
        String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(node.base().resolve("q/metrics"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
        return scrape.lines().filter(line -> line.startsWith(name)).map(line -> line.substring(line.lastIndexOf(' ') + 1))
                .findFirst().orElse("absent");
    }

    private static List<String> payloads(ExtClient client) {
        return client.messages.stream().map(ExtClient.Received::payload).toList();
    }
}
