package io.quarkiverse.cable.it.nodes;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.Account;
import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.RoomClients;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.Vertx;

/**
 * Several nodes as separate processes ({@code java -jar quarkus-run.jar}) on one PostgreSQL or MariaDB database: a
 * WebSocket client per channel on every node, every node broadcasting concurrently through REST. Every client
 * receives every message of its channel exactly once, each producer's messages in broadcast order, and all clients of
 * a channel, whatever their node, see the same sequence.
 * <p>
 * Sized for CI on 2 cores: 3 nodes x 4 threads x 250 broadcasts over 50 channels, 150 WebSocket clients (change with
 * {@code -Dcable.it.nodes}, {@code -Dcable.it.messages-per-thread}).
 */
public class MultiNodeIT {

    private static final int NODES = Integer.getInteger("cable.it.nodes", 3);
    private static final int THREADS_PER_NODE = 4;
    private static final int MESSAGES_PER_THREAD = Integer.getInteger("cable.it.messages-per-thread", 250);
    private static final int CHANNELS = 50;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);

    @Test
    void everyClientReceivesEveryMessageOfItsChannelOnceInOrder() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        List<CableNode> nodes = new ArrayList<>();
        RoomClients clients = null;
        Vertx vertx = Vertx.vertx();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(NODES, NODES * THREADS_PER_NODE));
        try {
            // The first node creates the tables; the others then start together.
            nodes.add(CableNode.start("multi-0", Map.of()));
            List<Future<CableNode>> starting = new ArrayList<>();
            for (int n = 1; n < NODES; n++) {
                String name = "multi-" + n;
                starting.add(pool.submit(() -> CableNode.start(name, Map.of())));
            }
            for (Future<CableNode> node : starting) {
                nodes.add(node.get(CableNode.START_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS));
            }

            clients = RoomClients.connect(vertx, "multi", CHANNELS, nodes);
            List<String> rooms = clients.rooms();

            Map<String, Set<String>> committedByRoom = new ConcurrentHashMap<>();
            rooms.forEach(room -> committedByRoom.put(room, ConcurrentHashMap.newKeySet()));
            List<Future<?>> producing = new ArrayList<>();
            for (int n = 0; n < nodes.size(); n++) {
                CableNode node = nodes.get(n);
                for (int t = 0; t < THREADS_PER_NODE; t++) {
                    String producer = "n" + n + "t" + t;
                    int offset = n * THREADS_PER_NODE + t;
                    producing.add(pool.submit(() -> {
                        for (int seq = 0; seq < MESSAGES_PER_THREAD; seq++) {
                            String room = rooms.get((seq + offset) % CHANNELS);
                            String payload = producer + "|" + seq;
                            HttpResponse<String> response = node.broadcast("room:" + room, payload);
                            assertThat(response.statusCode()).as("%s: %s", payload, response.body()).isEqualTo(202);
                            committedByRoom.get(room).add(payload);
                        }
                        return null;
                    }));
                }
            }
            long started = System.nanoTime();
            for (Future<?> future : producing) {
                future.get(DELIVERY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            long producedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            // An end marker per room, after everything else: once a client has it, its poller has passed every
            // earlier message of the room, so a late duplicate would already be there.
            for (String room : rooms) {
                assertThat(nodes.get(0).broadcast("room:" + room, "end").statusCode()).isEqualTo(202);
            }
            Account account = new Account();
            for (String room : rooms) {
                List<WsClient> roomClients = clients.byRoom.get(room);
                for (WsClient client : roomClients) {
                    await().atMost(DELIVERY_TIMEOUT).until(() -> client.received.contains("end"));
                    account.check(room, client.received, committedByRoom.get(room));
                }
                List<String> first = roomClients.get(0).received;
                for (WsClient client : roomClients) {
                    assertThat(client.received).as("every node delivers room %s in the same order", room)
                            .containsExactlyElementsOf(first);
                }
            }
            int sent = nodes.size() * THREADS_PER_NODE * MESSAGES_PER_THREAD;
            System.out.printf("MultiNodeIT (%s): %d nodes, %d broadcasts in %d ms, %d clients: %s%n",
                    CableNode.dbKind(), nodes.size(), sent, producedMillis, clients.size(), account);
            assertThat(account.clean()).as(account.toString()).isTrue();
            assertThat(account.delivered).isEqualTo((long) sent * nodes.size());
            for (CableNode node : nodes) {
                assertThat(node.process.isAlive()).as(node.name).isTrue();
            }
        } finally {
            pool.shutdownNow();
            if (clients != null) {
                clients.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            CableNode.closeAll(nodes);
        }
    }
}
