package io.quarkiverse.cable.it.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.CableIdentityEvent;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * {@code CableIdentityEvent.Online} and {@code .Offline}, once per cluster: an identity's first Action Cable session
 * on any node and its last one gone after the TTL (2 s here), also when the node holding it died. A second engine on
 * the same database is the other node; it fires nothing here, so every event this node fires is one this node made.
 * Absence is shown with fences: the next identity's event arrives after what an extra event would have been. Each
 * test reads the events of its own users only (another test's users go offline after it ended).
 */
@QuarkusTest
@TestProfile(IdentityEventsTest.On.class)
public class IdentityEventsTest {

    public static class On implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.presence.identity-events", "true");
        }
    }

    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    IdentityEventLog log;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    private final List<WsClient> clients = new ArrayList<>();
    private CableEngine nodeTwo;

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @AfterEach
    void stop() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
        if (nodeTwo != null) {
            nodeTwo.stop();
        }
    }

    @Test
    void anIdentityIsOnlineOnceForAllItsSessionsAndOfflineOnceAfterTheLast() throws Exception {
        String ann = Channels.unique("ann");
        WsClient tab1 = connected(ann);
        assertThat(next()).isEqualTo(new CableIdentityEvent.Online(Map.of("user", ann)));
        WsClient tab2 = connected(ann);
        tab1.close();
        // Fence: a new identity's Online comes after anything ann's second tab or first tab's close could have fired.
        String fence = Channels.unique("fence");
        connected(fence);
        assertThat(next()).isEqualTo(new CableIdentityEvent.Online(Map.of("user", fence)));
        tab2.close();
        assertThat(next()).isEqualTo(new CableIdentityEvent.Offline(Map.of("user", ann)));
    }

    @Test
    void theNodeThatMadeAChangeFiresItAndADeadNodesIdentitiesGoOfflineOnce() throws Exception {
        // A lease short enough to run out soon after node two stops, long enough that a loaded machine's late renewal
        // cannot let it lapse before (its worker renews a lease every ttl / 2; at 2 s the slack was under a second).
        nodeTwo = DatabaseNodes.node("identity-events-node-two", () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.presence.ttl", "10s", "quarkus.cable.presence.identity-events",
                        "true"));
        nodeTwo.start();
        String bea = Channels.unique("bea");
        String zed = Channels.unique("zed");
        // On node two: bea and zed come online there (node two's change, not this node's: nothing fires here).
        mine.addAll(List.of(bea, zed));
        for (String user : List.of(bea, zed)) {
            assertThat(nodeTwo.presence().join(IdentityChannels.IDENTITIES_PRESENT,
                    IdentityChannels.of(Map.of("user", user)), "node-two-" + user, null)).isTrue();
        }
        // bea connects here too: already online on the cluster, so no Online (the fence's comes first).
        connected(bea);
        String fence = Channels.unique("fence");
        connected(fence);
        assertThat(next()).isEqualTo(new CableIdentityEvent.Online(Map.of("user", fence)));
        // Node two dies: its lease runs out and this node's reaper ends its sessions. zed, on node two only, goes
        // offline (fired here, by the reaper's node); bea stays, held by her session here.
        nodeTwo.transport().presence().workers().forEach(worker -> worker.stop(10_000));
        assertThat(next()).isEqualTo(new CableIdentityEvent.Offline(Map.of("user", zed)));
        String fence2 = Channels.unique("fence");
        connected(fence2);
        assertThat(next()).isEqualTo(new CableIdentityEvent.Online(Map.of("user", fence2)));
    }

    /** Users of this test: events of another test's users (their offline after its end) are not this test's. */
    private final java.util.Set<String> mine = new java.util.HashSet<>();

    /** The next event of one of this test's users, within 60 s. */
    private CableIdentityEvent next() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            CableIdentityEvent event = log.events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            assertThat(event).as("an identity event within 60 s").isNotNull();
            if (mine.contains(event.identifiers().get("user"))) {
                return event;
            }
        }
    }

    /** Welcomed, and its first command handled: by then its open task (the identity's join) has run. */
    private WsClient connected(String user) throws Exception {
        mine.add(user);
        WsClient client = WsClient.connect(vertx, base, "/cable?user=" + user, "actioncable-v1-json");
        clients.add(client);
        String chat = new JsonObject().put("channel", "ChatChannel").put("room", Channels.unique("events")).encode();
        client.send(new JsonObject().put("command", "subscribe").put("identifier", chat).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(chat) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }
}
