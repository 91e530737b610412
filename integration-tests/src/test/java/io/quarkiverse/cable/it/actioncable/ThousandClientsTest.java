package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.abuse.SlowWebSocketClientTest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * 1,000 WebSocket connections over 25 rooms, of which 50 (two per room) stop reading once their streams are live. The
 * 950 others receive every message of their room, in order, while the 50 are closed with 1008 after the stall
 * timeout. Prints heap before and after and delivery latency; asserts no timing. The stalled clients (on /feed) also
 * stream a channel of 64 KiB messages, and use a small receive buffer, so their backlog reaches the server's outbox
 * within seconds. Heap "after" includes the messages table, which embedded H2 keeps in the same heap. Runs on embedded H2
 * only: the behaviour under test is the WebSocket layer's, and once in CI is enough.
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(SlowWebSocketClientTest.SmallOutbox.class)
public class ThousandClientsTest {

    private static final int ROOMS = 25;
    private static final int PER_ROOM = 40;
    private static final int STALLED_PER_ROOM = 2;
    private static final int MIN_ROUNDS = 100;
    private static final int ROUNDS_AFTER_CLOSE = 20;
    private static final String PADDING = "x".repeat(1024);
    private static final String BULK = "b".repeat(64 * 1024);
    private static final Duration WAIT = Duration.ofSeconds(180);

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    /** What one reading client has seen: frames in order, the largest delivery latency. */
    static final class Reader {
        final int room;
        final AtomicInteger received = new AtomicInteger();
        final AtomicInteger outOfOrder = new AtomicInteger();
        volatile boolean closed;

        Reader(int room) {
            this.room = room;
        }

        /** On the connection's event loop: frames of one connection arrive one at a time. */
        void onFrame(String text, CompletableFuture<Void> isReady, AtomicLongArray latencyMillis) {
            if (text.equals("ready")) {
                isReady.complete(null);
                return;
            }
            int bar = text.indexOf('|');
            int seq = Integer.parseInt(text.substring(0, bar));
            long sentAt = Long.parseLong(text.substring(bar + 1, text.indexOf('|', bar + 1)));
            latencyMillis.incrementAndGet((int) Math.min(1000, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt)));
            if (seq != received.getAndIncrement()) {
                outOfOrder.incrementAndGet();
            }
        }
    }

    @Test
    void stalledClientsAreClosedAndTheOthersKeepReceiving() throws Exception {
        assumeTrue(dbKind.equals("h2"), "the WebSocket layer does not depend on the database; run once, on H2");
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapBefore = usedHeapAfterGc(memory);
        String prefix = "thousand-" + System.nanoTime();
        String bulk = prefix + "-bulk";
        long slowBefore = engine.stats().failures(Failure.SLOW_CONSUMER);
        // latency histogram in milliseconds, last bucket is "1 s or more"
        AtomicLongArray latencyMillis = new AtomicLongArray(1001);
        WebSocketClient readerClient = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(2000));
        WebSocketClient stalledClient = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(200)
                .setReceiveBufferSize(8192));
        List<Reader> readers = new ArrayList<>();
        List<WebSocket> sockets = new ArrayList<>();
        List<CompletableFuture<Short>> stalledClosed = new ArrayList<>();
        try {
            List<CompletableFuture<Void>> ready = new ArrayList<>();
            List<CompletableFuture<WebSocket>> connecting = new ArrayList<>();
            for (int room = 0; room < ROOMS; room++) {
                for (int i = 0; i < PER_ROOM; i++) {
                    boolean stalled = i < STALLED_PER_ROOM;
                    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(base.getHost())
                            .setPort(base.getPort()).setURI("/rooms/" + prefix + "-" + room);
                    CompletableFuture<Void> isReady = new CompletableFuture<>();
                    ready.add(isReady);
                    if (stalled) {
                        // A /feed connection streaming the room and a bulk channel of large messages that only the
                        // stalled clients take: their backlog fills the socket buffers in seconds, not minutes.
                        CompletableFuture<Short> closed = new CompletableFuture<>();
                        stalledClosed.add(closed);
                        String roomChannel = "room:" + prefix + "-" + room;
                        CompletableFuture<WebSocket> socket = stalledClient.connect(new WebSocketConnectOptions()
                                .setHost(base.getHost()).setPort(base.getPort()).setURI("/feed")).onSuccess(ws -> {
                                    AtomicInteger started = new AtomicInteger();
                                    ws.closeHandler(ignored -> closed.complete(ws.closeStatusCode()));
                                    ws.textMessageHandler(text -> {
                                        if (text.startsWith("started:") && started.incrementAndGet() == 2) {
                                            ws.pause(); // never reads again
                                            isReady.complete(null);
                                        }
                                    });
                                    ws.writeTextMessage("start:" + roomChannel);
                                    ws.writeTextMessage("start:" + bulk);
                                }).toCompletionStage().toCompletableFuture();
                        connecting.add(socket);
                    } else {
                        Reader reader = new Reader(room);
                        readers.add(reader);
                        CompletableFuture<WebSocket> socket = readerClient.connect(options).onSuccess(ws -> {
                            ws.closeHandler(ignored -> reader.closed = true);
                            ws.textMessageHandler(text -> reader.onFrame(text, isReady, latencyMillis));
                        }).toCompletionStage().toCompletableFuture();
                        connecting.add(socket);
                    }
                }
            }
            CompletableFuture.allOf(connecting.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            for (CompletableFuture<WebSocket> socket : connecting) {
                sockets.add(socket.join());
            }
            CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            long heapConnected = usedHeapAfterGc(memory);

            // One message per room per round, paced (20 rounds a second) so the load stays bounded on 2 cores; go on
            // until the server has closed every stalled client, then a few more rounds.
            int rounds = 0;
            int roundsAfterClose = -1;
            long deadline = System.nanoTime() + WAIT.toNanos();
            long started = System.nanoTime();
            while (System.nanoTime() < deadline && (rounds < MIN_ROUNDS || roundsAfterClose < ROUNDS_AFTER_CLOSE)) {
                List<CompletableFuture<Void>> commits = new ArrayList<>();
                for (int room = 0; room < ROOMS; room++) {
                    commits.add(cable.broadcast("room:" + prefix + "-" + room,
                            rounds + "|" + System.nanoTime() + "|" + PADDING).toCompletableFuture());
                }
                if (roundsAfterClose < 0) {
                    commits.add(cable.broadcast(bulk, BULK).toCompletableFuture());
                }
                CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                rounds++;
                if (roundsAfterClose >= 0) {
                    roundsAfterClose++;
                } else if (!engine.subscribersByChannel().containsKey(bulk)) {
                    // Only the stalled connections stream the bulk channel: it has no subscriber left once the server
                    // has closed every one of them. (The global slow-consumer count is no proof of that: it counts any
                    // connection closed as too slow, wherever.)
                    roundsAfterClose = 0;
                }
                long next = started + rounds * TimeUnit.MILLISECONDS.toNanos(50);
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait); // pacing the load, not synchronisation
                }
            }
            int sent = rounds;
            // The stalled clients read again: they get what their buffers held, then the close frame.
            for (int i = 0; i < sockets.size(); i++) {
                sockets.get(i).resume();
            }
            // The server has let go of every stalled connection: no stream of the bulk channel is left, and each room
            // streams to its readers only.
            await().atMost(WAIT).until(() -> !engine.subscribersByChannel().containsKey(bulk));
            for (int room = 0; room < ROOMS; room++) {
                assertThat(engine.subscribersByChannel().get("room:" + prefix + "-" + room))
                        .isEqualTo(PER_ROOM - STALLED_PER_ROOM);
            }
            try {
                CompletableFuture.allOf(stalledClosed.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // reported below: the client side of a connection the server closed long ago may not have noticed
            }
            long closedWith1008 = stalledClosed.stream()
                    .filter(c -> c.isDone() && Short.valueOf((short) 1008).equals(c.getNow(null))).count();
            await().atMost(WAIT).until(() -> readers.stream().allMatch(r -> r.received.get() >= sent));
            long heapAfter = usedHeapAfterGc(memory);
            for (Reader reader : readers) {
                assertThat(reader.closed).isFalse();
                assertThat(reader.outOfOrder.get()).isZero();
                assertThat(reader.received.get()).isEqualTo(sent);
            }
            assertThat(engine.stats().failures(Failure.SLOW_CONSUMER) - slowBefore)
                    .isEqualTo(ROOMS * STALLED_PER_ROOM);
            long deliveries = (long) sent * readers.size();
            System.out.printf("ThousandClientsTest: %d connections (%d stalled), %d rounds of %d messages (%d B),"
                    + " %d deliveries to readers; %d stalled closed by the server, %d saw 1008; latency p50 %s, p99 %s, max %s;"
                    + " heap used after GC: before %d MiB, %d connected %d MiB, after %d MiB%n",
                    readers.size() + stalledClosed.size(), stalledClosed.size(), sent, ROOMS, PADDING.length() + 30,
                    deliveries, stalledClosed.size(), closedWith1008, percentile(latencyMillis, 0.50),
                    percentile(latencyMillis, 0.99),
                    percentile(latencyMillis, 1.0), heapBefore >> 20, readers.size() + stalledClosed.size(),
                    heapConnected >> 20, heapAfter >> 20);
        } finally {
            for (WebSocket socket : sockets) {
                if (!socket.isClosed()) {
                    socket.close();
                }
            }
            readerClient.close();
            stalledClient.close();
        }
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static String percentile(AtomicLongArray histogram, double fraction) {
        long total = 0;
        for (int i = 0; i < histogram.length(); i++) {
            total += histogram.get(i);
        }
        long target = (long) Math.ceil(total * fraction);
        long seen = 0;
        for (int i = 0; i < histogram.length(); i++) {
            seen += histogram.get(i);
            if (seen >= target && histogram.get(i) > 0) {
                return i == histogram.length() - 1 ? ">=1000 ms" : i + " ms";
            }
        }
        return "n/a";
    }
}
