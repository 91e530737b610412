package io.quarkiverse.cable.it.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;

/**
 * Two cable nodes whose datasource goes through PgBouncer in transaction pooling mode (topology lab, section 3):
 * the pooled connections need {@code prepareThreshold=0} (pgjdbc's named server-side statements collide across
 * server connections, but only under concurrency, so the load here is concurrent), and the doorbell's LISTEN must
 * bypass the pooler, which accepts it and drops every notification.
 */
class PgBouncerIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final TopologyScript PGBOUNCER = new TopologyScript("pgbouncer");
    private static final int PORT = Integer.getInteger("cable.topology.pgbouncer.port", 6432);
    private static final String SILENCE_WARNING = "most likely goes through a pooler in transaction mode";

    private final List<CableNode> nodes = new ArrayList<>();
    private final List<WsClient> clients = new ArrayList<>();

    @BeforeAll
    static void startPgBouncer() throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql") && CableNode.sharedDatabase(),
                "PgBouncer fronts the PostgreSQL server of the run (-Pdb-postgresql)");
        PGBOUNCER.run("setup", 120);
    }

    @AfterAll
    static void stopPgBouncer() throws Exception {
        if (CableNode.dbKind().equals("postgresql")) {
            PGBOUNCER.run("stop", 30);
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
        CableNode.closeAll(nodes);
    }

    /**
     * PgBouncer's backend: the machine's main PostgreSQL server (pgbouncer.sh fronts 127.0.0.1:5432) and the
     * integration tests' database there ({@code cable.topology.pgbouncer.database}, cable_it unless set), whichever
     * cluster the topology stage's other cases use for the nodes' own URL.
     */
    private static final String DATABASE = System.getProperty("cable.topology.pgbouncer.database", "cable_it");
    private static final String DIRECT = "jdbc:postgresql://127.0.0.1:5432/" + DATABASE;

    /** The same database, reached through PgBouncer, with the one driver setting transaction pooling needs. */
    private static String pooledUrl() {
        return "jdbc:postgresql://127.0.0.1:" + PORT + "/" + DATABASE + "?prepareThreshold=0";
    }

    @Test
    void deliveryIsExactAcrossNodesThroughThePoolerWithTheDoorbellDirect() throws Exception {
        // No poll for an hour: broadcasts from the other node arrive only through the doorbell, so a doorbell that
        // went through the pooler would fail this by timeout.
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.cable.polling-interval", "1h");
        config.put("quarkus.cable.health.poll-timeout", "2h");
        config.put("quarkus.cable.wakeup.jdbc-url", DIRECT);
        List<CableNode> both = start("bouncer-a", "bouncer-b", config);
        CableNode a = both.get(0);
        CableNode b = both.get(1);
        String room = "bouncer-" + UUID.randomUUID();
        WsClient onA = subscribe(a, room);
        WsClient onB = subscribe(b, room);

        // 3 concurrent producers per node on the same channel: more clients than PgBouncer's 4 server connections
        // per pool once the nodes' pollers and writers are counted, so statements do move between backends.
        List<String> sent = Collections.synchronizedList(new ArrayList<>());
        ExecutorService producers = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (CableNode node : List.of(a, b)) {
                for (int t = 0; t < 3; t++) {
                    String producer = node.name + "-t" + t;
                    running.add(producers.submit(() -> {
                        for (int i = 0; i < 25; i++) {
                            String payload = producer + "-" + i;
                            HttpResponse<String> response = node.broadcast("room:" + room, payload);
                            assertThat(response.statusCode()).as("%s: %s", payload, response.body()).isEqualTo(202);
                            sent.add(payload);
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> producer : running) {
                producer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            producers.shutdownNow();
        }

        List<String> seenOnA = receivedExactly(onA, sent);
        List<String> seenOnB = receivedExactly(onB, sent);
        assertThat(seenOnB).as("both nodes deliver in the same (commit) order").isEqualTo(seenOnA);
        assertThat(NodeReadings.metric(b, "cable_doorbell_rings_total{direction=\"heard\"}")).isPositive();
        assertThat(NodeReadings.health(b)).contains("\"doorbell\":\"connected\"");
        assertThat(NodeReadings.metric(a, "cable_doorbell_silent")).isZero();
        assertThat(NodeReadings.metric(b, "cable_doorbell_silent")).isZero();
    }

    @Test
    void aDoorbellThroughThePoolerIsReportedSilentAndPollingStillDelivers() throws Exception {
        // The misconfiguration: no wakeup.jdbc-url, so the LISTEN goes through PgBouncer. The default polling
        // interval delivers.
        List<CableNode> both = start("deaf-a", "deaf-b", Map.of());
        CableNode a = both.get(0);
        CableNode b = both.get(1);
        String room = "deaf-" + UUID.randomUUID();
        WsClient onB = subscribe(b, room);

        List<String> sent = new ArrayList<>();
        // One broadcast per check until B reports it: each is polled on its own, and a working doorbell would have
        // heard A's rings long before.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            String payload = "deaf-" + sent.size();
            HttpResponse<String> response = a.broadcast("room:" + room, payload);
            assertThat(response.statusCode()).as("%s: %s", payload, response.body()).isEqualTo(202);
            sent.add(payload);
            return NodeReadings.health(b).contains("\"doorbell\":\"silent\"");
        });

        assertThat(NodeReadings.metric(b, "cable_doorbell_silent")).isEqualTo(1.0);
        assertThat(NodeReadings.metric(b, "cable_doorbell_rings_total{direction=\"heard\"}")).isZero();
        assertThat(b.readyStatus()).as("informational: polling still delivers").isEqualTo(200);
        assertThat(NodeReadings.health(b)).contains("doorbell-warning");
        String log = Files.readString(b.log, StandardCharsets.UTF_8);
        assertThat(log.split(SILENCE_WARNING, -1)).as("one WARN naming the pooler").hasSize(2);
        receivedExactly(onB, sent);
    }

    /**
     * The pooler dies under load: PgBouncer SIGKILLed (every pooled connection of both nodes cut at once) and started
     * again 2 s later, while one producer per node keeps broadcasting. Every acknowledged message is delivered once
     * on both nodes, each producer's in order, and messages of unknown outcome (504) at most once; prints the time
     * from the kill (and from PgBouncer's restart) to the first delivery, on each node, of a message sent after the
     * kill. Real clients on node A ride through it: a pooler's fault is between the cable and the database, so their
     * connections stay up, and both (@anycable/core recovering, @rails/actioncable live) get every acknowledged
     * message of their chat room once, in order, without a reconnect.
     */
    @Test
    void aPgBouncerKilledUnderLoadLosesNothingAcknowledgedAndDeliveryResumes() throws Exception {
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.cable.wakeup.jdbc-url", DIRECT);
        List<CableNode> both = start("killed-a", "killed-b", config);
        String room = "bouncer-kill-" + UUID.randomUUID();
        List<WsClient> subscribers = List.of(subscribe(both.get(0), room), subscribe(both.get(1), room));
        String jsRoom = "bouncer-js-" + UUID.randomUUID();
        NodeClients js = NodeClients.start(both.get(0).port, jsRoom);
        List<String> chatAcknowledged = Collections.synchronizedList(new ArrayList<>());
        Set<String> chatUnknown = ConcurrentHashMap.newKeySet();
        List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        Set<String> unknown = ConcurrentHashMap.newKeySet();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        ExecutorService producers = Executors.newFixedThreadPool(2);
        long[] firstDelivery = new long[2];
        long killedAt;
        long backAt;
        try {
            await().atMost(WAIT).until(() -> js.running() && js.saw("rec", "frame",
                    f -> "confirm_history".equals(f.getString("type"))) && js.saw("live", "connected", d -> true));
            List<Future<?>> running = new ArrayList<>();
            for (CableNode node : both) {
                running.add(producers.submit(() -> {
                    for (int i = 0; producing.get(); i++) {
                        String payload = node.name + "-" + i;
                        sentAt.put(payload, System.nanoTime());
                        int status;
                        try {
                            status = node.broadcast("room:" + room, payload).statusCode();
                        } catch (Exception e) {
                            status = -1;
                        }
                        (status == 202 ? acknowledged : status == 504 ? unknown : failed).add(payload);
                        // One message for the real clients' chat room (a ChatChannel message), named "pN-k" as
                        // NodeClients' per-producer order check reads them.
                        String chat = "p" + both.indexOf(node) + "-" + i;
                        try {
                            status = node.broadcast("chat:" + jsRoom, "{\"m\":\"" + chat + "\"}").statusCode();
                        } catch (Exception e) {
                            status = -1;
                        }
                        if (status == 202) {
                            chatAcknowledged.add(chat);
                        } else if (status == 504) {
                            chatUnknown.add(chat);
                        }
                    }
                    return null;
                }));
            }
            await().atMost(WAIT).until(() -> acknowledged.size() >= 40);
            PGBOUNCER.run("kill", 30);
            killedAt = System.nanoTime();
            Thread.sleep(2000); // the outage
            PGBOUNCER.run("start", 60);
            backAt = System.nanoTime();
            for (int n = 0; n < 2; n++) {
                WsClient client = subscribers.get(n);
                await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> client.received.stream()
                        .anyMatch(payload -> sentAt.getOrDefault(payload, 0L) > killedAt));
                firstDelivery[n] = System.nanoTime();
            }
            int before = acknowledged.size();
            await().atMost(WAIT).until(() -> acknowledged.size() >= before + 40);
            producing.set(false);
            for (Future<?> producer : running) {
                producer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            await().atMost(WAIT).until(() -> js.running() && js.payloads("rec").containsAll(chatAcknowledged)
                    && js.payloads("live").containsAll(chatAcknowledged));
            js.assertDeliveredExactly("rec", "@anycable/core", chatAcknowledged, chatUnknown);
            js.assertDeliveredExactly("live", "@rails/actioncable", chatAcknowledged, chatUnknown);
            // The pooler's fault never reached the clients: no reconnect, one subscription, no history refused.
            assertThat(js.first("live", "connected", d -> d.getBoolean("reconnected"), Long.MIN_VALUE))
                    .as("@rails/actioncable reconnected").isNull();
            assertThat(js.first("rec", "connect", c -> c.getBoolean("reconnect"), Long.MIN_VALUE))
                    .as("@anycable/core reconnected").isNull();
            assertThat(js.of("rec", "frame").stream().map(e -> e.json().getString("type")))
                    .as("@anycable/core's subscription frames").containsExactlyInAnyOrder("confirm_subscription",
                            "confirm_history");
        } finally {
            producing.set(false);
            producers.shutdownNow();
            js.close();
        }
        System.out.printf("[figures] pgbouncer kill, real clients on node A: @anycable/core and @rails/actioncable got"
                + " all %d acknowledged chat messages once, in order, without a reconnect%n", chatAcknowledged.size());
        System.out.printf("[figures] pgbouncer kill: acknowledged %d, unknown %d, failed %d; first delivery of a"
                + " message sent after the kill: node A %d ms, node B %d ms after the kill (%d ms and %d ms after"
                + " PgBouncer was back; outage %d ms)%n", acknowledged.size(), unknown.size(), failed.size(),
                TimeUnit.NANOSECONDS.toMillis(firstDelivery[0] - killedAt),
                TimeUnit.NANOSECONDS.toMillis(firstDelivery[1] - killedAt),
                TimeUnit.NANOSECONDS.toMillis(firstDelivery[0] - backAt),
                TimeUnit.NANOSECONDS.toMillis(firstDelivery[1] - backAt), TimeUnit.NANOSECONDS.toMillis(backAt - killedAt));
        for (WsClient client : subscribers) {
            await().atMost(WAIT).until(() -> new HashSet<>(client.received).containsAll(acknowledged));
            List<String> got = new ArrayList<>(client.received);
            assertThat(got.remove(0)).isEqualTo("ready");
            assertThat(got).as("each message once").doesNotHaveDuplicates();
            Set<String> allowed = new HashSet<>(acknowledged);
            allowed.addAll(unknown);
            assertThat(allowed).as("nothing that was not acknowledged or of unknown outcome").containsAll(got);
            Map<String, Integer> lastIndex = new HashMap<>();
            for (String payload : got) {
                String producer = payload.substring(0, payload.lastIndexOf('-'));
                int index = Integer.parseInt(payload.substring(payload.lastIndexOf('-') + 1));
                Integer previous = lastIndex.put(producer, index);
                assertThat(previous == null || index > previous).as("order of %s", producer).isTrue();
            }
        }
    }

    private List<CableNode> start(String first, String second, Map<String, String> config) throws Exception {
        Map<String, String> urls = new java.util.LinkedHashMap<>();
        urls.put(first, pooledUrl());
        urls.put(second, pooledUrl());
        // The doorbell's state is one of readiness's details, off by default (health endpoints are public).
        Map<String, String> withDetails = new java.util.HashMap<>(config);
        withDetails.put("quarkus.cable.health.details", "true");
        return Nodes.start(nodes, urls, withDetails);
    }

    private WsClient subscribe(CableNode node, String room) throws Exception {
        WsClient client = WsClient.connect(null, node.base(), "/rooms/" + room).awaitFrame("ready");
        clients.add(client);
        return client;
    }

    /**
     * Waits until the client has every sent message, then checks it got each once, nothing else, and each producer's
     * in the order that producer sent them; returns what it got, without the "ready" frame.
     */
    private static List<String> receivedExactly(WsClient client, List<String> sent) {
        await().atMost(WAIT).until(() -> new HashSet<>(client.received).containsAll(sent));
        List<String> got = new ArrayList<>(client.received);
        assertThat(got.remove(0)).isEqualTo("ready");
        assertThat(got).as("each message once, nothing else").hasSize(sent.size())
                .containsExactlyInAnyOrderElementsOf(sent);
        Map<String, Integer> lastIndex = new HashMap<>();
        for (String payload : got) {
            String producer = payload.substring(0, payload.lastIndexOf('-'));
            int index = Integer.parseInt(payload.substring(payload.lastIndexOf('-') + 1));
            Integer previous = lastIndex.put(producer, index);
            assertThat(index).as("order of %s", producer).isEqualTo(previous == null ? 0 : previous + 1);
        }
        return got;
    }
}
