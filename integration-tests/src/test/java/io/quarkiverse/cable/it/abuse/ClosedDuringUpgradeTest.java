package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.LocalSessions;
import io.quarkus.arc.All;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Clients that go away during the WebSocket upgrade or right after it: no connection entry outlives its socket, on the
 * Action Cable endpoint or on a {@code @StreamFrom} endpoint (each front end's {@link LocalSessions#count()}: its
 * connections, with their streams and outboxes).
 */
@QuarkusTest
@DatabaseIndependent
public class ClosedDuringUpgradeTest {

    private static final int PER_WAY = 100;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TestHTTPResource("/")
    URI base;

    /** Both WebSocket front ends' sessions on this node. */
    @Inject
    @All
    List<LocalSessions> frontEnds;

    @Inject
    @Internal
    CableEngine engine;

    /** How a client leaves: reset at once, close at once, or close after reading the 101. */
    enum Way {
        RESET,
        CLOSE,
        AFTER_UPGRADE
    }

    @Test
    void clientsThatLeaveDuringTheUpgradeLeaveNothingBehind() throws Exception {
        String prefix = "upgrade-" + System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            int n = 0;
            for (Way way : Way.values()) {
                for (int i = 0; i < PER_WAY; i++) {
                    String room = prefix + "-" + n++;
                    done.add(clients.submit(() -> leave("/cable", "actioncable-v1-json", way)));
                    done.add(clients.submit(() -> leave("/rooms/" + room, null, way)));
                }
            }
            for (Future<?> future : done) {
                future.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(frontEnds).hasSize(2).allSatisfy(sessions -> assertThat(sessions.count())
                    .as("connections still registered by " + sessions.getClass().getSimpleName()).isZero());
            assertThat(engine.subscribersByChannel().keySet())
                    .noneMatch(channel -> channel.startsWith("room:" + prefix));
        });
    }

    private Void leave(String path, String subProtocol, Way way) throws Exception {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            if (way == Way.RESET) {
                socket.setSoLinger(true, 0);
            }
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n"
                    + (subProtocol == null ? "" : "Sec-WebSocket-Protocol: " + subProtocol + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (way == Way.AFTER_UPGRADE) {
                socket.setSoTimeout((int) WAIT.toMillis());
                InputStream in = socket.getInputStream();
                byte[] status = in.readNBytes(12); // "HTTP/1.1 101"
                assertThat(new String(status, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 101");
            }
        }
        return null;
    }
}
