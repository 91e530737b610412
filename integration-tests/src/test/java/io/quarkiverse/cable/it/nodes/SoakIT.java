package io.quarkiverse.cable.it.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.FaultPostgres;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.Vertx;

/**
 * The soak (not in CI: it runs only with {@code -Dsoak.minutes=N}, see bench/run-soak.sh): two nodes on the fault
 * PostgreSQL cluster, four producers broadcasting through REST to 10 rooms, 2 WebSocket clients per room per node;
 * at random moments the database is stopped, crashed or has its sessions terminated, and clients are closed and
 * replaced. It ends with an exact account: sent, committed, failed (StorageFailed), delivered per client, lost,
 * duplicated and out of order.
 * <p>
 * A client's duty: everything committed on its room whose request started after the client was ready, without a
 * duplicate, in producer order, and nothing that was not committed or that was committed before it connected. A
 * closed client is held to all of that except the messages still in flight when it was closed.
 */
public class SoakIT {

    private static final int ROOMS = 10;
    private static final int CLIENTS_PER_ROOM_PER_NODE = 2;
    private static final int PRODUCERS = 4;
    private static final Duration WAIT = Duration.ofSeconds(180);

    /** One broadcast's life, in System.nanoTime. */
    record Sent(String room, long requestedAt, long committedAt) {
    }

    /** One WebSocket client's life. */
    static final class Client {
        final String name;
        final String node;
        final String room;
        final WsClient ws;
        final long connectingAt;
        final long readyAt;
        volatile long closedAt = Long.MAX_VALUE;

        Client(String name, String node, String room, WsClient ws, long connectingAt, long readyAt) {
            this.name = name;
            this.node = node;
            this.room = room;
            this.ws = ws;
            this.connectingAt = connectingAt;
            this.readyAt = readyAt;
        }
    }

    @Test
    void soak() throws Exception {
        assumeTrue(System.getProperty("soak.minutes") != null, "the soak runs only with -Dsoak.minutes=N");
        assumeTrue(CableNode.dbKind().equals("postgresql"), "the soak restarts the fault PostgreSQL cluster");
        int minutes = Math.max(1, Math.min(120, Integer.getInteger("soak.minutes")));
        long seed = Long.getLong("soak.seed", System.nanoTime());
        Random random = new Random(seed);
        FaultPostgres.setup();
        Map<String, String> config = Map.of("quarkus.cable.writer.retry-timeout", "3s",
                "quarkus.datasource.jdbc.acquisition-timeout", "2s");
        List<CableNode> nodes = new ArrayList<>();
        List<Client> clients = new CopyOnWriteArrayList<>();
        Vertx vertx = Vertx.vertx();
        ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
        AtomicBoolean producing = new AtomicBoolean(true);
        Map<String, Sent> committed = new ConcurrentHashMap<>();
        Set<String> storageFailed = ConcurrentHashMap.newKeySet();
        Set<String> commitUnknown = ConcurrentHashMap.newKeySet();
        List<String> otherFailures = new CopyOnWriteArrayList<>();
        AtomicLong sent = new AtomicLong();
        Map<String, Integer> faults = new HashMap<>();
        try {
            nodes.add(CableNode.start("soak-a", FaultPostgres.URL, config));
            nodes.add(CableNode.start("soak-b", FaultPostgres.URL, config));
            String prefix = "soak-" + UUID.randomUUID();
            List<String> rooms = new ArrayList<>();
            for (int r = 0; r < ROOMS; r++) {
                rooms.add(prefix + "-" + r);
            }
            int clientNumber = 0;
            for (String room : rooms) {
                for (CableNode node : nodes) {
                    for (int i = 0; i < CLIENTS_PER_ROOM_PER_NODE; i++) {
                        clients.add(connect(vertx, node, room, "c" + clientNumber++));
                    }
                }
            }
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                CableNode node = nodes.get(p % 2 == 0 ? 0 : 1);
                String producer = "p" + p;
                int offset = p;
                producers.add(pool.submit(() -> {
                    for (int seq = 0; producing.get(); seq++) {
                        String room = rooms.get((seq * 7 + offset) % ROOMS);
                        String payload = producer + "|" + seq;
                        long requestedAt = System.nanoTime();
                        sent.incrementAndGet();
                        HttpResponse<String> response = node.broadcast("room:" + room, payload);
                        if (response.statusCode() == 202) {
                            committed.put(payload, new Sent("room:" + room, requestedAt, System.nanoTime()));
                        } else if (response.statusCode() == 500 && response.body().contains("retry-timeout")) {
                            storageFailed.add(payload);
                        } else if (response.statusCode() == 504 && response.body().contains("retry-timeout")) {
                            commitUnknown.add(payload);
                        } else {
                            otherFailures.add(payload + " -> " + response.statusCode() + " " + response.body());
                        }
                        TimeUnit.MILLISECONDS.sleep(5); // bounds the load on a shared 2-core machine
                    }
                    return null;
                }));
            }

            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
            while (System.nanoTime() < end) {
                TimeUnit.SECONDS.sleep(5 + random.nextInt(20)); // the next fault, at a random moment
                int what = random.nextInt(10);
                if (what < 2) {
                    FaultPostgres.stop();
                    TimeUnit.MILLISECONDS.sleep(500 + random.nextInt(6000));
                    FaultPostgres.start();
                    faults.merge("database stopped and started", 1, Integer::sum);
                } else if (what < 4) {
                    FaultPostgres.crash();
                    TimeUnit.MILLISECONDS.sleep(500 + random.nextInt(6000));
                    FaultPostgres.start();
                    faults.merge("database crashed and started", 1, Integer::sum);
                } else if (what < 6) {
                    FaultPostgres.terminateSessions();
                    faults.merge("sessions terminated", 1, Integer::sum);
                } else {
                    List<Client> open = clients.stream().filter(c -> c.closedAt == Long.MAX_VALUE).toList();
                    Client victim = open.get(random.nextInt(open.size()));
                    victim.closedAt = System.nanoTime();
                    victim.ws.close();
                    CableNode node = nodes.get(random.nextInt(nodes.size()));
                    clients.add(connect(vertx, node, victim.room.substring("room:".length()), "c" + clientNumber++));
                    faults.merge("client closed and replaced", 1, Integer::sum);
                }
            }
            producing.set(false);
            for (Future<?> producer : producers) {
                producer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            for (String room : rooms) {
                assertThat(nodes.get(0).broadcast("room:" + room, "end").statusCode()).isEqualTo(202);
            }

            long lost = 0;
            long duplicated = 0;
            long outOfOrder = 0;
            long unexpected = 0;
            long delivered = 0;
            long inDoubtDelivered = 0;
            StringBuilder perClient = new StringBuilder();
            List<String> stuck = new ArrayList<>();
            try {
                await().atMost(WAIT).until(() -> clients.stream()
                        .allMatch(c -> c.closedAt != Long.MAX_VALUE || c.ws.received.contains("end")));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                for (Client client : clients) {
                    if (client.closedAt == Long.MAX_VALUE && !client.ws.received.contains("end")) {
                        List<String> received = client.ws.received;
                        stuck.add(client.name + " on " + client.node + " " + client.room + ": " + received.size()
                                + " frames, last " + (received.isEmpty() ? "-" : received.get(received.size() - 1))
                                + ", closed " + (client.ws.closeStatus.isDone() ? client.ws.closeStatus.join() + " "
                                        + client.ws.closeReason : "no"));
                    }
                }
            }
            for (Client client : clients) {
                boolean open = client.closedAt == Long.MAX_VALUE;
                Set<String> seen = new HashSet<>();
                Map<String, Integer> lastSeq = new HashMap<>();
                long clientLost = 0;
                long clientDuplicated = 0;
                long clientOutOfOrder = 0;
                long clientUnexpected = 0;
                for (String frame : client.ws.received) {
                    int bar = frame.lastIndexOf('|');
                    if (bar < 0) {
                        continue;
                    }
                    if (!seen.add(frame)) {
                        clientDuplicated++;
                        continue;
                    }
                    Sent s = committed.get(frame);
                    if (commitUnknown.contains(frame)) {
                        inDoubtDelivered++;
                    } else if (s == null || !s.room().equals(client.room) || s.committedAt() < client.connectingAt) {
                        clientUnexpected++;
                    }
                    Integer previous = lastSeq.put(frame.substring(0, bar), Integer.parseInt(frame.substring(bar + 1)));
                    if (previous != null && previous > Integer.parseInt(frame.substring(bar + 1))) {
                        clientOutOfOrder++;
                    }
                }
                for (Map.Entry<String, Sent> entry : committed.entrySet()) {
                    Sent s = entry.getValue();
                    if (s.room().equals(client.room) && s.requestedAt() > client.readyAt && open
                            && !seen.contains(entry.getKey())) {
                        clientLost++;
                    }
                }
                delivered += seen.size();
                lost += clientLost;
                duplicated += clientDuplicated;
                outOfOrder += clientOutOfOrder;
                unexpected += clientUnexpected;
                perClient.append(String.format("  %-5s %-9s delivered %6d lost %d duplicated %d out-of-order %d"
                        + " not-committed %d%n", client.name, open ? "open" : "replaced", seen.size(), clientLost,
                        clientDuplicated, clientOutOfOrder, clientUnexpected));
            }
            System.out.printf("SoakIT account (seed %d, %d min, %s): sent %d, committed %d, failed with StorageFailed"
                    + " %d, with CommitUnknown %d, other failures %d; faults %s; %d clients, delivered %d (of which"
                    + " commit unknown %d); lost %d, duplicated %d, out of order %d, delivered but not committed %d;"
                    + " clients without the end marker %d %s%n%s",
                    seed, minutes, CableNode.dbKind(), sent.get(), committed.size(), storageFailed.size(),
                    commitUnknown.size(), otherFailures.size(), faults, clients.size(), delivered, inDoubtDelivered,
                    lost, duplicated, outOfOrder, unexpected, stuck.size(), stuck, perClient);
            assertThat(otherFailures).isEmpty();
            assertThat(stuck).as("open clients that never got the end marker").isEmpty();
            assertThat(lost + duplicated + outOfOrder + unexpected).isZero();
            assertThat(sent.get()).isEqualTo(committed.size() + storageFailed.size() + commitUnknown.size());
        } finally {
            producing.set(false);
            pool.shutdownNow();
            FaultPostgres.start();
            for (Client client : clients) {
                try {
                    client.ws.close();
                } catch (Exception ignored) {
                    // closed already
                }
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            CableNode.closeAll(nodes);
        }
    }

    private static Client connect(Vertx vertx, CableNode node, String room, String name) throws Exception {
        long connectingAt = System.nanoTime();
        WsClient ws = WsClient.connect(vertx, node.base(), "/rooms/" + room).awaitFrame("ready");
        return new Client(name, node.name, "room:" + room, ws, connectingAt, System.nanoTime());
    }
}
