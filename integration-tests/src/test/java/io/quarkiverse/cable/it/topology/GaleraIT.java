package io.quarkiverse.cable.it.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;

/**
 * Two cable nodes writing to different nodes of a 3-node MariaDB Galera cluster (topology lab, section 4). Row locks
 * are local to each Galera node, so the writers' shard row becomes certification conflicts (1213 / 40001 at COMMIT
 * or at the next statement): the writer must re-run those batches, and every message must still arrive once, in
 * order. Then a Galera node is SIGKILLed under the load: its clients reconnect to the next host (the COMMIT in flight
 * fails with 25S03 and is resolved by the batch receipt), the survivors stall about 7 s and go on.
 * <p>
 * The datasource URLs set {@code wsrep_sync_wait=1}: without it, a read on one node (a poll, the receipt read after
 * a lost COMMIT) may miss a write another node already certified.
 */
class GaleraIT {

    private static final TopologyScript GALERA = new TopologyScript("galera");
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String OPTIONS = "?sessionVariables=wsrep_sync_wait=1";

    private final List<CableNode> nodes = new ArrayList<>();
    private final List<WsClient> clients = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        assumeTrue(CableNode.dbKind().equals("mariadb"), "a MariaDB case (-Pdb-mariadb)");
        GALERA.run("setup", 300);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (CableNode.dbKind().equals("mariadb")) {
            GALERA.run("stop", 120);
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
        CableNode.closeAll(nodes);
    }

    /** A sequential URL: the first host while it lives, then the next. */
    private static String url(int... galeraNodes) {
        StringBuilder hosts = new StringBuilder();
        for (int node : galeraNodes) {
            hosts.append(hosts.isEmpty() ? "" : ",").append("127.0.0.1:331").append(node);
        }
        return "jdbc:mariadb:sequential://" + hosts + "/cable_galera" + OPTIONS;
    }

    @Test
    void writersOnTwoGaleraNodesDeliverExactlyAndSurviveANodeKill() throws Exception {
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("galera-a", url(1, 2, 3));
        urls.put("galera-b", url(2, 3, 1));
        List<CableNode> both = Nodes.start(nodes, urls, Map.of("quarkus.cable.writer.retry-timeout", "30s"));
        CableNode a = both.get(0);
        CableNode b = both.get(1);
        List<String> rooms = List.of("galera-1-" + UUID.randomUUID(), "galera-2-" + UUID.randomUUID());
        Map<String, List<WsClient>> subscribers = new HashMap<>();
        for (String room : rooms) {
            for (CableNode node : both) {
                WsClient client = WsClient.connect(null, node.base(), "/rooms/" + room).awaitFrame("ready");
                clients.add(client);
                subscribers.computeIfAbsent(room, r -> new ArrayList<>()).add(client);
            }
        }

        // Phase 1, a mixed load: 2 producers per node and room, all at once, on the same channels.
        Load first = new Load("p1");
        first.run(both, rooms, 15, null);
        assertThat(first.failed).as("no failure without a fault").isEmpty();
        assertThat(first.unknown).isEmpty();
        for (String room : rooms) {
            List<String> seen = null;
            for (WsClient client : subscribers.get(room)) {
                List<String> got = deliveredExactly(client, first.acknowledged(room), Set.of(), both);
                if (seen != null) {
                    assertThat(got).as("both nodes deliver in the same (commit) order").isEqualTo(seen);
                }
                seen = got;
            }
        }
        double conflicts = NodeReadings.metric(a, "cable_writer_conflicts_total")
                + NodeReadings.metric(b, "cable_writer_conflicts_total");
        System.out.printf("[figures] galera phase 1: %d commits, %.0f conflict re-runs%n", first.total(), conflicts);
        // Conflicts are routine here and must not be reported as failing attempts.
        assertThat(NodeReadings.metric(a, "cable_errors_total{kind=\"write_retry\"}")
                + NodeReadings.metric(b, "cable_errors_total{kind=\"write_retry\"}")).isZero();

        // Phase 2: SIGKILL Galera node 1 (node A's) while both nodes keep broadcasting.
        // Real clients on node A (src/test/js/topology-clients.js), on a chat room of their own that one producer
        // per cable node feeds during phase 2: @anycable/core recovering, @rails/actioncable live. Both are cut
        // once the kill was survived; the recovering one resumes its history on node A (now on Galera node 2).
        String jsRoom = "galera-js-" + UUID.randomUUID();
        NodeClients js = NodeClients.start(a.port, jsRoom);
        try {
            await().atMost(WAIT).until(() -> js.running() && js.saw("rec", "frame",
                    f -> "confirm_history".equals(f.getString("type"))) && js.saw("live", "connected", d -> true));
            phaseTwo(both, rooms, subscribers, first, js, jsRoom);
        } finally {
            js.close();
        }
    }

    private void phaseTwo(List<CableNode> both, List<String> rooms, Map<String, List<WsClient>> subscribers, Load first,
            NodeClients js, String jsRoom) throws Exception {
        CableNode a = both.get(0);
        CableNode b = both.get(1);
        List<String> chatAcknowledged = java.util.Collections.synchronizedList(new ArrayList<>());
        Set<String> chatUnknown = ConcurrentHashMap.newKeySet();
        Map<String, Long> chatSentAt = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicBoolean chatting = new java.util.concurrent.atomic.AtomicBoolean(true);
        ExecutorService chat = Executors.newFixedThreadPool(2);
        List<Future<?>> chatters = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            CableNode via = both.get(p);
            String producer = "p" + p;
            chatters.add(chat.submit(() -> {
                for (int i = 0; chatting.get(); i++) {
                    String payload = producer + "-" + i;
                    chatSentAt.put(payload, System.nanoTime());
                    int status = via.broadcast("chat:" + jsRoom, "{\"m\":\"" + payload + "\"}").statusCode();
                    if (status == 202) {
                        chatAcknowledged.add(payload);
                    } else if (status == 504) {
                        chatUnknown.add(payload);
                    }
                    Thread.sleep(20);
                }
                return null;
            }));
        }
        long[] droppedAt = new long[1];

        // Time to first delivery: from the kill until a client of each cable node has a message sent after it
        // (checked every 10 ms while the producers go on).
        Load second = new Load("p2");
        long[] firstDelivery = new long[2];
        second.run(both, rooms, 40, () -> {
            GALERA.run("kill", 30, "1");
            long killedAt = System.nanoTime();
            for (int n = 0; n < both.size(); n++) {
                int node = n;
                await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> rooms.stream()
                        .flatMap(room -> subscribers.get(room).get(node).received.stream())
                        .anyMatch(payload -> second.sentAtNanos.getOrDefault(payload, 0L) > killedAt));
                firstDelivery[node] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            }
            js.drop();
            droppedAt[0] = System.nanoTime();
        });
        System.out.printf("[figures] galera node kill: acknowledged %d, unknown %d, failed %d; longest gap between "
                + "acknowledgements %d ms; first delivery of a message sent after the kill: node A (on the killed"
                + " Galera node) %d ms, node B %d ms after the kill%n", second.total(), second.unknown.size(),
                second.failed.size(), second.longestGapMillis(), firstDelivery[0], firstDelivery[1]);
        // Survivors continue and the dead node's clients reconnect elsewhere: both nodes commit again.
        for (CableNode node : both) {
            await().atMost(WAIT).until(() -> node.broadcast("room:" + rooms.get(0), "after-" + node.name + "-"
                    + UUID.randomUUID()).statusCode() == 202);
        }
        for (String room : rooms) {
            for (WsClient client : subscribers.get(room)) {
                List<String> acknowledged = new ArrayList<>(first.acknowledged(room));
                acknowledged.addAll(second.acknowledged(room));
                deliveredExactly(client, acknowledged, second.unknown, both);
            }
        }

        // The real clients: both back after the drop, then the chat producers stop and a last message goes through
        // each node.
        try {
            await().atMost(WAIT).until(() -> {
                NodeClients.Event back = js.first("live", "connected", d -> d.getBoolean("reconnected"), droppedAt[0]);
                return js.running() && js.first("rec", "frame", f -> "confirm_history".equals(f.getString("type")),
                        droppedAt[0]) != null && back != null && js.first("live", "msg", m -> true, back.nanos()) != null;
            });
        } finally {
            chatting.set(false);
            chat.shutdown();
        }
        for (Future<?> chatter : chatters) {
            chatter.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(b.broadcast("chat:" + jsRoom, "{\"m\":\"end-b\"}").statusCode()).isEqualTo(202);
        assertThat(a.broadcast("chat:" + jsRoom, "{\"m\":\"end-a\"}").statusCode()).isEqualTo(202);
        chatAcknowledged.add("end-b");
        chatAcknowledged.add("end-a");
        await().atMost(WAIT).until(() -> js.payloads("rec").containsAll(List.of("end-a", "end-b"))
                && js.payloads("live").containsAll(List.of("end-a", "end-b")));

        // @anycable/core: every acknowledged message once, in order, across its reconnect; at most once what had an
        // unknown outcome; its history never refused (the Galera cluster's identity did not change).
        js.assertDeliveredExactly("rec", "@anycable/core", chatAcknowledged, chatUnknown);
        assertThat(js.of("rec", "frame").stream().map(e -> e.json().getString("type")))
                .as("@anycable/core: its history was never refused").doesNotContain("reject_history");
        assertThat(js.first("rec", "connect", c -> c.getBoolean("reconnect"), droppedAt[0])).isNotNull();
        // @rails/actioncable: at most once, in order, and after its reconnect everything sent once it was back.
        List<String> live = js.payloads("live");
        assertThat(live).as("@rails/actioncable: each message at most once").doesNotHaveDuplicates();
        NodeClients.assertEachProducerInOrder("@rails/actioncable", live);
        NodeClients.Event back = js.first("live", "connected", d -> d.getBoolean("reconnected"), droppedAt[0]);
        Set<String> liveGot = new HashSet<>(live);
        assertThat(chatAcknowledged.stream().filter(m -> chatSentAt.getOrDefault(m, Long.MAX_VALUE) > back.nanos()
                && !liveGot.contains(m)).toList()).as("@rails/actioncable: sent once it was back, never delivered")
                .isEmpty();
        System.out.printf("[figures] galera node kill, real clients on node A: @anycable/core got all %d acknowledged"
                + " messages once, in order, across its reconnect; @rails/actioncable reconnected %d ms after the drop"
                + " and missed %d acknowledged messages while away%n", chatAcknowledged.size(),
                TimeUnit.NANOSECONDS.toMillis(back.nanos() - droppedAt[0]),
                chatAcknowledged.stream().filter(m -> !liveGot.contains(m)).count());
    }

    /** Concurrent producers; each message's answer: 202 acknowledged, 504 unknown (CommitUnknown), else failed. */
    private static final class Load {
        final String phase;
        final Map<String, List<String>> acknowledgedByRoom = new ConcurrentHashMap<>();
        final Set<String> unknown = ConcurrentHashMap.newKeySet();
        final Set<String> failed = ConcurrentHashMap.newKeySet();
        final List<Long> acknowledgedAtNanos = java.util.Collections.synchronizedList(new ArrayList<>());
        /** When each message's broadcast was sent (System.nanoTime). */
        final Map<String, Long> sentAtNanos = new ConcurrentHashMap<>();

        Load(String phase) {
            this.phase = phase;
        }

        interface Fault {
            void inject() throws Exception;
        }

        void run(List<CableNode> nodes, List<String> rooms, int perProducer, Fault fault) throws Exception {
            ExecutorService producers = Executors.newCachedThreadPool();
            CountDownLatch halfway = new CountDownLatch(1);
            AtomicLong sentCount = new AtomicLong();
            long total = (long) nodes.size() * rooms.size() * 2 * perProducer;
            try {
                List<Future<?>> running = new ArrayList<>();
                for (CableNode node : nodes) {
                    for (String room : rooms) {
                        for (int t = 0; t < 2; t++) {
                            String producer = phase + "-" + node.name + "-t" + t;
                            running.add(producers.submit(() -> {
                                for (int i = 0; i < perProducer; i++) {
                                    String payload = producer + "-" + i;
                                    sentAtNanos.put(payload, System.nanoTime());
                                    int status = node.broadcast("room:" + room, payload).statusCode();
                                    if (status == 202) {
                                        acknowledgedByRoom.computeIfAbsent(room, r -> java.util.Collections
                                                .synchronizedList(new ArrayList<>())).add(payload);
                                        acknowledgedAtNanos.add(System.nanoTime());
                                    } else if (status == 504) {
                                        unknown.add(payload);
                                    } else {
                                        failed.add(payload);
                                    }
                                    if (sentCount.incrementAndGet() == total / 3) {
                                        halfway.countDown();
                                    }
                                }
                                return null;
                            }));
                        }
                    }
                }
                if (fault != null) {
                    assertThat(halfway.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
                    fault.inject();
                }
                for (Future<?> producer : running) {
                    producer.get(WAIT.toSeconds() * 3, TimeUnit.SECONDS);
                }
            } finally {
                producers.shutdownNow();
            }
        }

        List<String> acknowledged(String room) {
            return List.copyOf(acknowledgedByRoom.getOrDefault(room, List.of()));
        }

        int total() {
            return acknowledgedAtNanos.size();
        }

        long longestGapMillis() {
            List<Long> times = new ArrayList<>(acknowledgedAtNanos);
            times.sort(null);
            long gap = 0;
            for (int i = 1; i < times.size(); i++) {
                gap = Math.max(gap, times.get(i) - times.get(i - 1));
            }
            return TimeUnit.NANOSECONDS.toMillis(gap);
        }
    }

    /**
     * Waits until the client has every acknowledged message; checks it got each at most once, only messages that
     * were sent (acknowledged, or of unknown outcome), every acknowledged one, and each producer's in order.
     */
    private static List<String> deliveredExactly(WsClient client, List<String> acknowledged, Set<String> unknown,
            List<CableNode> nodes) {
        try {
            await().atMost(WAIT).until(() -> new HashSet<>(client.received).containsAll(acknowledged));
        } catch (ConditionTimeoutException e) {
            // A loss seen once in CI on a loaded machine and never reproduced idle: the failure says all it can.
            List<String> missing = new ArrayList<>(acknowledged);
            missing.removeAll(new HashSet<>(client.received));
            throw new AssertionError(missing.size() + " of " + acknowledged.size() + " acknowledged messages never"
                    + " arrived within " + WAIT + ", the first ones: " + missing.subList(0, Math.min(10, missing.size()))
                    + "; client: " + client.state() + NodeReadings.describe(nodes), e);
        }
        List<String> got = new ArrayList<>(client.received);
        assertThat(got.remove(0)).isEqualTo("ready");
        got.removeIf(payload -> payload.startsWith("after-"));
        assertThat(new HashSet<>(got)).as("no duplicate").hasSize(got.size());
        Set<String> allowed = new HashSet<>(acknowledged);
        allowed.addAll(unknown);
        assertThat(allowed).as("nothing that was not sent").containsAll(got);
        Map<String, Integer> lastIndex = new HashMap<>();
        for (String payload : got) {
            String producer = payload.substring(0, payload.lastIndexOf('-'));
            int index = Integer.parseInt(payload.substring(payload.lastIndexOf('-') + 1));
            Integer previous = lastIndex.put(producer, index);
            assertThat(previous == null || index > previous).as("order of %s: %d after %s", producer, index, previous)
                    .isTrue();
        }
        return got;
    }
}
