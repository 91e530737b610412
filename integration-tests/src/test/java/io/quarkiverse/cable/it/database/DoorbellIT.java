package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.FaultPostgres;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.actioncable.ActionCableProtocolTest;
import io.vertx.core.Vertx;

/**
 * The cross-node wake-up (PostgreSQL doorbell, MariaDB newest-id probe) with two nodes as separate processes. Most
 * tests set {@code polling-interval} to an hour, so a broadcast from the other node can only arrive through the
 * wake-up: a broken doorbell fails them by timeout instead of passing slowly. Every delivery is checked exactly
 * (every message once, in broadcast order, nothing else).
 */
public class DoorbellIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TODOS = "{\"channel\":\"TodoChannel\"}";
    /** Polling so rare that only the wake-up can deliver within the test's waits. */
    private static final Map<String, String> WAKEUP_ONLY = Map.of(
            "quarkus.cable.polling-interval", "1h",
            "quarkus.cable.health.poll-timeout", "2h");

    private final List<CableNode> nodes = new ArrayList<>();
    private final List<WsClient> clients = new ArrayList<>();
    private Vertx vertx;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (WsClient client : clients) {
            try {
                client.close();
            } catch (Exception ignored) {
                // its node may be gone
            }
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        CableNode.closeAll(nodes);
    }

    @Test
    void theWakeUpCarriesBroadcastsAcrossNodesWithoutWaitingForAPoll() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        CableNode a = start("wake-a", CableNode.dbUrl(), WAKEUP_ONLY);
        CableNode b = start("wake-b", CableNode.dbUrl(), WAKEUP_ONLY);
        String room = room("wake");
        WsClient onB = subscribe(b, room);

        List<String> sent = broadcastAll(a, room, "m", 20);
        assertReceivedExactly(onB, sent);
        if (CableNode.dbKind().equals("postgresql")) {
            assertThat(metric(b, "cable_doorbell_rings_total{direction=\"heard\"}")).isPositive();
            assertThat(metric(a, "cable_doorbell_rings_total{direction=\"sent\"}")).isPositive();
            assertThat(health(b)).contains("\"doorbell\":\"connected\"");
        } else {
            assertThat(metric(b, "cable_probes_total{result=\"moved\"}")).isPositive();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "in-transaction", "after-commit" })
    void eitherRingCarriesWriterAndApplicationBroadcasts(String ring) throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql") && CableNode.sharedDatabase(), "PostgreSQL doorbell");
        Map<String, String> config = new HashMap<>(WAKEUP_ONLY);
        config.put("quarkus.cable.wakeup.ring", ring);
        CableNode a = start(ring + "-a", CableNode.dbUrl(), config);
        CableNode b = start(ring + "-b", CableNode.dbUrl(), config);
        String room = room(ring);
        WsClient onB = subscribe(b, room);

        // The writer's batches: in-transaction runs no ringer thread, so only the batch statement's notification can
        // wake node B; after-commit has only the ringer's.
        List<String> sent = broadcastAll(a, room, "w", 20);
        assertReceivedExactly(onB, sent);
        assertThat(metric(a, "cable_doorbell_rings_total{direction=\"sent\"}")).isPositive();
        assertThat(metric(b, "cable_doorbell_rings_total{direction=\"heard\"}")).isPositive();

        // A broadcast in an application transaction rings with that transaction's commit, and only if it commits.
        WsClient todosOnB = WsClient.connect(vertx, b.base(), "/cable", ActionCableProtocolTest.V1);
        clients.add(todosOnB);
        todosOnB.send(ActionCableProtocolTest.subscribe(TODOS));
        todosOnB.awaitFrame(ActionCableProtocolTest.confirm(TODOS));
        String rolledBack = "rolled-back-" + UUID.randomUUID();
        String committed = "committed-" + UUID.randomUUID();
        assertThat(addTodo(a, rolledBack, true)).isEqualTo(500);
        assertThat(addTodo(a, committed, false)).isEqualTo(200);
        await().atMost(WAIT).until(() -> todosOnB.received.stream().anyMatch(frame -> frame.contains(committed)));
        assertThat(todosOnB.received).noneMatch(frame -> frame.contains(rolledBack));
    }

    @Test
    void theDoorbellNeverDeliversAnythingItself() throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql") && CableNode.sharedDatabase(), "PostgreSQL doorbell");
        CableNode a = start("forged-a", CableNode.dbUrl(), WAKEUP_ONLY);
        CableNode b = start("forged-b", CableNode.dbUrl(), WAKEUP_ONLY);
        String room = room("forged");
        WsClient onB = subscribe(b, room);
        double heardBefore = metric(b, "cable_doorbell_rings_total{direction=\"heard\"}");

        // Rings nobody's writer sent, with payloads that look like messages: they may wake the poller, which finds
        // nothing; they must never become deliveries.
        try (Connection connection = DriverManager.getConnection(CableNode.dbUrl(), CableNode.dbUser(),
                CableNode.dbPassword());
                PreparedStatement ring = connection.prepareStatement("SELECT pg_notify('quarkus_cable', ?)")) {
            for (String forged : List.of("forged-1", "{\"channel\":\"room:" + room + "\",\"payload\":\"forged-2\"}",
                    "room:" + room)) {
                ring.setString(1, forged);
                ring.execute();
            }
        }
        await().atMost(WAIT).until(() -> metric(b, "cable_doorbell_rings_total{direction=\"heard\"}") >= heardBefore + 3);

        List<String> sent = broadcastAll(a, room, "real", 3);
        assertReceivedExactly(onB, sent);
    }

    @Test
    void deliveryStaysExactWhenTheDoorbellConnectionIsKilled() throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql") && CableNode.sharedDatabase(), "PostgreSQL doorbell");
        CableNode a = start("killed-a", CableNode.dbUrl(), WAKEUP_ONLY);
        CableNode b = start("killed-b", CableNode.dbUrl(), WAKEUP_ONLY);
        String room = room("killed");
        WsClient onB = subscribe(b, room);

        List<String> sent = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            double connects = metric(b, "cable_doorbell_connects_total");
            int killed = terminateDoorbells(CableNode.dbUrl());
            assertThat(killed).as("doorbell sessions terminated").isGreaterThanOrEqualTo(2);
            // Broadcast at once, while the listeners may still be down: the reconnect's own wake-up must pick these
            // up, since no poll would run for an hour.
            sent.addAll(broadcastAll(a, room, "r" + round + "-", 10));
            await().atMost(WAIT).until(() -> metric(b, "cable_doorbell_connects_total") > connects);
        }
        sent.addAll(broadcastAll(a, room, "after-", 5));
        assertReceivedExactly(onB, sent);
        assertThat(health(b)).contains("\"doorbell\":\"connected\"");
        assertThat(metric(b, "cable_doorbell_connected")).isEqualTo(1.0);
    }

    @Test
    void withoutAnyNotificationDeliveryFallsBackToPolling() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        // Node A never rings or probes; node B keeps its doorbell (or probe) but, with A silent, only its polls can
        // find A's broadcasts. The default 100 ms polling interval applies.
        CableNode a = start("silent-a", CableNode.dbUrl(), Map.of("quarkus.cable.wakeup.mode", "none"));
        CableNode b = start("silent-b", CableNode.dbUrl(), Map.of());
        String room = room("silent");
        WsClient onB = subscribe(b, room);

        List<String> sent = broadcastAll(a, room, "s", 30);
        assertReceivedExactly(onB, sent);
        if (CableNode.dbKind().equals("postgresql")) {
            assertThat(metric(b, "cable_doorbell_rings_total{direction=\"heard\"}")).as("nobody rang").isZero();
            assertThat(metric(a, "cable_polls_total")).isNotNegative();
        }
    }

    @Test
    void theDoorbellComesBackAfterTheDatabaseRestarts() throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql"), "the restartable cluster is PostgreSQL (-Pdb-postgresql)");
        assumeTrue(FaultPostgres.available(), "needs the PostgreSQL cluster tools (pg_createcluster, pg_ctlcluster)");
        FaultPostgres.setup();
        Map<String, String> config = new HashMap<>(WAKEUP_ONLY);
        config.put("quarkus.cable.wakeup.max-reconnect-backoff", "1s");
        CableNode a = start("restart-doorbell-a", FaultPostgres.URL, config);
        CableNode b = start("restart-doorbell-b", FaultPostgres.URL, config);
        String room = room("restart");
        WsClient onB = subscribe(b, room);
        List<String> sent = broadcastAll(a, room, "before-", 5);
        double connects = metric(b, "cable_doorbell_connects_total");

        FaultPostgres.stop();
        await().atMost(WAIT).until(() -> metric(b, "cable_doorbell_connected") == 0.0);
        FaultPostgres.start();
        await().atMost(WAIT).until(() -> metric(b, "cable_doorbell_connected") == 1.0
                && metric(b, "cable_doorbell_connects_total") > connects);

        sent.addAll(broadcastAllRetrying(a, room, "after-", 10));
        assertReceivedExactly(onB, sent);
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    private CableNode start(String name, String url, Map<String, String> config) throws Exception {
        // The doorbell's state is a readiness detail, hidden unless health.details is on.
        Map<String, String> withDetails = new java.util.HashMap<>(config);
        withDetails.put("quarkus.cable.health.details", "true");
        CableNode node = CableNode.start(name, url, withDetails);
        nodes.add(node);
        return node;
    }

    private static String room(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private WsClient subscribe(CableNode node, String room) throws Exception {
        WsClient client = WsClient.connect(vertx, node.base(), "/rooms/" + room).awaitFrame("ready");
        clients.add(client);
        return client;
    }

    /** Broadcasts one by one; each answered 202, i.e. committed. */
    private static List<String> broadcastAll(CableNode node, String room, String prefix, int count) throws Exception {
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String payload = prefix + i;
            HttpResponse<String> response = node.broadcast("room:" + room, payload);
            assertThat(response.statusCode()).as("%s: %s", payload, response.body()).isEqualTo(202);
            sent.add(payload);
        }
        return sent;
    }

    /** POST /todos on {@code node}: saves a to-do and broadcasts it in one transaction; the status code. */
    private static int addTodo(CableNode node, String title, boolean failAfterBroadcast) throws Exception {
        return CableNode.HTTP.send(HttpRequest.newBuilder(node.base().resolve("todos?failAfterBroadcast="
                + failAfterBroadcast)).timeout(Duration.ofSeconds(60)).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(title)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** Right after a restart the pool may still hand out a dead connection once: retries a refused broadcast. */
    private static List<String> broadcastAllRetrying(CableNode node, String room, String prefix, int count)
            throws Exception {
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String payload = prefix + i;
            await().atMost(WAIT).until(() -> node.broadcast("room:" + room, payload).statusCode() == 202);
            sent.add(payload);
        }
        return sent;
    }

    /** Waits for the last message, then checks the client saw "ready" and exactly {@code sent}, in order. */
    private static void assertReceivedExactly(WsClient client, List<String> sent) {
        String last = sent.get(sent.size() - 1);
        client.awaitFrame(last);
        List<String> expected = new ArrayList<>();
        expected.add("ready");
        expected.addAll(sent);
        assertThat(List.copyOf(client.received)).containsExactlyElementsOf(expected);
    }

    private static int terminateDoorbells(String url) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, CableNode.dbUser(), CableNode.dbPassword());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        + " WHERE application_name = 'quarkus-cable-doorbell' AND datname = current_database()")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static final Pattern SERIES = Pattern.compile("^(\\S+?(?:\\{[^}]*\\})?) (\\S+)$", Pattern.MULTILINE);

    /** One series of the node's /q/metrics (labels in Prometheus order); fails when it is missing. */
    private static double metric(CableNode node, String series) throws Exception {
        String text = get(node, "q/metrics");
        Matcher matcher = SERIES.matcher(text);
        while (matcher.find()) {
            if (matcher.group(1).equals(series)) {
                return Double.parseDouble(matcher.group(2));
            }
        }
        throw new AssertionError("no series " + series + " on " + node.name);
    }

    private static String health(CableNode node) throws Exception {
        return get(node, "q/health/ready").replace(" ", "").replace("\n", "");
    }

    private static String get(CableNode node, String path) throws Exception {
        return CableNode.HTTP.send(HttpRequest.newBuilder(node.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
