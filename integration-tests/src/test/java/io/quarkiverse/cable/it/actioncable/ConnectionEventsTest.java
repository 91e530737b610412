package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableConnectionEvent;
import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Rails' connect/disconnect callbacks as CDI events: one {@code Opened} and one {@code Closed} per welcomed
 * connection, in that order, however it ends; none for a connection that was never welcomed; an observer that fails
 * changes nothing for the connection.
 */
@QuarkusTest
@DatabaseIndependent
public class ConnectionEventsTest {

    private static final String V1 = "actioncable-v1-json";
    private static final String EXT = "actioncable-v1-ext-json";
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Log log;

    @Inject
    CableConnections connections;

    /** The application's observers, as a user would write them; user {@code boom}'s make both events fail. */
    @Singleton
    static class Log {
        final List<CableConnectionEvent> events = new CopyOnWriteArrayList<>();

        void opened(@Observes CableConnectionEvent.Opened opened) {
            record(opened);
        }

        void closed(@Observes CableConnectionEvent.Closed closed) {
            record(closed);
        }

        private void record(CableConnectionEvent event) {
            events.add(event);
            if (event.identifiers().getOrDefault("user", "").startsWith("boom")) {
                throw new IllegalStateException("an observer that fails");
            }
        }

        List<CableConnectionEvent> of(String user) {
            return events.stream().filter(event -> user.equals(event.identifiers().get("user"))).toList();
        }
    }

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void oneOpenedThenOneClosedPerWelcomedConnection() throws Exception {
        String ann = Channels.unique("ann");
        String bob = Channels.unique("bob");
        WsClient annClient = WsClient.connect(vertx, base, "/cable?user=" + ann, V1).awaitFrame("{\"type\":\"welcome\"}");
        try (WsClient bobClient = WsClient.connect(vertx, base, "/cable?user=" + bob, EXT)) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> bobClient.received.stream().anyMatch(frame -> frame.startsWith("{\"type\":\"welcome\"")));
            await().atMost(Duration.ofSeconds(60)).until(() -> log.of(ann).size() == 1 && log.of(bob).size() == 1);
            CableConnectionEvent opened = log.of(ann).get(0);
            assertThat(opened).isInstanceOf(CableConnectionEvent.Opened.class);
            assertThat(opened.identifiers()).isEqualTo(Map.of("user", ann));
            assertThat(opened.protocol()).isEqualTo(V1);
            assertThat(log.of(bob).get(0).protocol()).isEqualTo(EXT);
            // The extended protocol's sid is the event's session id.
            assertThat(bobClient.received).anyMatch(frame -> frame.contains("\"sid\":\"" + log.of(bob).get(0).sessionId()));

            annClient.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> log.of(ann).size() == 2);
            assertThat(log.of(ann).get(1)).isEqualTo(
                    new CableConnectionEvent.Closed(opened.sessionId(), Map.of("user", ann), V1));
            assertThat(log.of(bob)).hasSize(1);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> log.of(bob).size() == 2);
        assertThat(log.of(bob).get(1)).isInstanceOf(CableConnectionEvent.Closed.class);
    }

    @Test
    void aRemoteDisconnectClosesOnceAndAnUnwelcomedConnectionFiresNothing() throws Exception {
        String carol = Channels.unique("carol");
        try (WsClient client = WsClient.connect(vertx, base, "/cable?user=" + carol, V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            assertThat(connections.disconnect("user", carol, false)).isEqualTo(1);
            assertThat(client.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> log.of(carol).size() == 2);
        // mallory is refused (unauthorized): never welcomed, so neither event.
        try (WsClient mallory = WsClient.connect(vertx, base, "/cable?user=mallory", V1)) {
            assertThat(mallory.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
        }
        assertThat(log.of(carol)).hasSize(2);
        assertThat(log.of("mallory")).isEmpty();
    }

    @Test
    void anObserverThatFailsChangesNothingForTheConnection() throws Exception {
        String boom = Channels.unique("boom");
        String chat = new JsonObject().put("channel", "ChatChannel").put("room", Channels.unique("boom")).encode();
        try (WsClient client = WsClient.connect(vertx, base, "/cable?user=" + boom, V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            client.send(new JsonObject().put("command", "subscribe").put("identifier", chat).encode());
            client.awaitFrame(
                    "{\"identifier\":" + Json.encode(chat) + ",\"type\":\"confirm_subscription\"}");
            assertThat(client.closeStatus).isNotDone();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> log.of(boom).size() == 2);
    }
}
