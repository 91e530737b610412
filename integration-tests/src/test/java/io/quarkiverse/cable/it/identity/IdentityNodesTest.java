package io.quarkiverse.cable.it.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.GemBroadcaster;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Per-identity delivery and remote disconnect across two nodes on one database: the application (its Action Cable
 * endpoint holds the sessions) and a second, independent engine with its own writer and poller, which broadcasts to an
 * identity and disconnects it. Whatever the second node writes reaches the first only through the database.
 */
@OncePerServer
@QuarkusTest
public class IdentityNodesTest {

    private static final String V1 = "actioncable-v1-json";
    private static final String INBOX = new JsonObject().put("channel", "InboxChannel").encode();
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    CableIdentities identities;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CableRuntimeConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    private CableEngine nodeTwo;
    private CableIdentities remote;
    private final List<WsClient> clients = new ArrayList<>();

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void startNodeTwo() {
        nodeTwo = DatabaseNodes.node("identity-node-two", () -> dataSource, SqlDialect.forDbKind(dbKind), config);
        nodeTwo.start();
        remote = nodeTwo.identities();
    }

    @AfterEach
    void stop() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
        nodeTwo.stop();
    }

    @Test
    void broadcastToReachesExactlyTheIdentitysSessionsOnceInOrder() throws Exception {
        String user = Channels.unique("ann");
        String other = Channels.unique("bob");
        List<WsClient> sessions = List.of(inbox(user), inbox(user), inbox(user));
        WsClient bob = inbox(other);
        int count = 30;
        for (int i = 0; i < count; i++) {
            // Half from each node: both reach the identity's channel through the database.
            CableIdentities from = i % 2 == 0 ? remote : identities;
            from.broadcast(Map.of("user", user), new JsonObject().put("n", i).encode()).toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
        }
        // A fence for both users: once bob has it, every broadcast before it was dispatched to him too.
        remote.broadcast(Map.of("user", other), "fence").toCompletableFuture().get(60, TimeUnit.SECONDS);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            expected.add(message(new JsonObject().put("n", i).encode()));
        }
        for (WsClient session : sessions) {
            session.awaitFrame(expected.get(count - 1));
            assertThat(session.received).filteredOn(IdentityNodesTest::isBroadcast)
                    .containsExactlyElementsOf(expected);
        }
        bob.awaitFrame(message("\"fence\""));
        assertThat(bob.received).filteredOn(IdentityNodesTest::isBroadcast).containsExactly(message("\"fence\""));
    }

    @Test
    void disconnectClosesEverySessionOfTheIdentityAndNoOther() throws Exception {
        String user = Channels.unique("ann");
        String other = Channels.unique("bob");
        List<WsClient> sessions = List.of(inbox(user), inbox(user), inbox(user));
        WsClient bob = inbox(other);
        long commandsBefore = engine.stats().disconnectCommands();
        long closedBefore = engine.stats().remotelyDisconnected();
        remote.disconnect(Map.of("user", user), false).toCompletableFuture().get(60, TimeUnit.SECONDS);
        String frame = "{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":false}";
        for (WsClient session : sessions) {
            session.awaitFrame(frame);
            assertThat(session.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
            assertThat(session.received).filteredOn(frame::equals).hasSize(1);
        }
        // Counted on the node that closed them (cable.identity.disconnect.commands, .disconnected.sessions).
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(engine.stats().disconnectCommands() - commandsBefore).isEqualTo(1);
            assertThat(engine.stats().remotelyDisconnected() - closedBefore).isEqualTo(3);
        });
        // bob is still connected and still receiving, on his own channel and on an ordinary one.
        remote.broadcast(Map.of("user", other), "still here").toCompletableFuture().get(60, TimeUnit.SECONDS);
        bob.awaitFrame(message("\"still here\""));
        assertThat(bob.closeStatus).isNotDone();
        assertThat(bob.received).doesNotContain(frame);
    }

    @Test
    void aCommandThatDoesNotDecodeIsSkippedAndTheNextOneApplied() throws Exception {
        String user = Channels.unique("eve");
        WsClient session = inbox(user);
        // As a row written by hand on the control channel would be: the node logs it and keeps reading commands.
        nodeTwo.broadcastCommand(IdentityChannels.CONTROL, "not a command".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .toCompletableFuture().get(60, TimeUnit.SECONDS);
        remote.disconnect(Map.of("user", user), false).toCompletableFuture().get(60, TimeUnit.SECONDS);
        session.awaitFrame("{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":false}");
        assertThat(session.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
    }

    /**
     * AnyCable's remote disconnect through the HTTP publish endpoint (what anycable-rails'
     * {@code remote_connections.where(...).disconnect} sends): the identifier is the JSON text of the identifiers.
     */
    @Test
    void theHttpPublishEndpointsDisconnectCommandClosesEverySessionOfTheIdentity() throws Exception {
        String user = Channels.unique("dee");
        String other = Channels.unique("bob");
        List<WsClient> sessions = List.of(inbox(user), inbox(user));
        WsClient bob = inbox(other);
        String identifier = new JsonObject().put("user", user).encode();
        HttpResponse<String> answer = new GemBroadcaster(base, GemBroadcaster.SECRET).post(new JsonObject()
                .put("command", "disconnect")
                .put("payload", new JsonObject().put("identifier", identifier).put("reconnect", false)).encode());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        String frame = "{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":false}";
        for (WsClient session : sessions) {
            session.awaitFrame(frame);
            assertThat(session.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
        }
        remote.broadcast(Map.of("user", other), "still here").toCompletableFuture().get(60, TimeUnit.SECONDS);
        bob.awaitFrame(message("\"still here\""));
        assertThat(bob.closeStatus).isNotDone();
    }

    @Test
    void reconnectTrueIsSentAsIs() throws Exception {
        String user = Channels.unique("cy");
        WsClient session = inbox(user);
        identities.disconnect(Map.of("user", user), true).toCompletableFuture().get(60, TimeUnit.SECONDS);
        session.awaitFrame("{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":true}");
        assertThat(session.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
    }

    @Test
    void aClientCannotStreamAnotherIdentitysChannelNorTheControlChannel() throws Exception {
        String victim = Channels.unique("vic");
        String attacker = Channels.unique("mallet");
        WsClient mallet = connect(attacker);
        for (String stream : List.of(CableIdentities.channel(Map.of("user", victim)), IdentityChannels.CONTROL)) {
            String identifier = new JsonObject().put("channel", "InboxChannel").put("stream", stream).encode();
            mallet.send(command("subscribe", identifier));
            mallet.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"reject_subscription\"}");
        }
        // Its own identity channel, named explicitly, is allowed.
        String own = new JsonObject().put("channel", "InboxChannel").put("stream",
                CableIdentities.channel(Map.of("user", attacker)))
                .encode();
        mallet.send(command("subscribe", own));
        mallet.awaitFrame(confirmation(own));
    }

    @Test
    void aDisconnectCannotBeForgedByBroadcasting() throws Exception {
        String user = Channels.unique("dee");
        WsClient session = inbox(user);
        // What the cable itself writes on the control channel for CableIdentities.disconnect (the stored command).
        String forged = new JsonObject().put("type", "disconnect").put("identifiers", new JsonObject().put("user", user))
                .put("reconnect", false).encode();
        // The application's API (and so the HTTP publish endpoint and every action) refuses the control channel.
        for (Cable api : List.of(cable, cable.withoutTransaction(), nodeTwo)) {
            assertThatThrownBy(() -> api.broadcast(IdentityChannels.CONTROL, forged).toCompletableFuture().join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(CableException.InvalidMessage.class);
        }
        // A disconnect-shaped payload on the identity's own channel is a message for the page, not a command.
        String frame = "{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":false}";
        identities.broadcast(Map.of("user", user), frame).toCompletableFuture().get(60,
                TimeUnit.SECONDS);
        session.awaitFrame(message(frame));
        identities.broadcast(Map.of("user", user), "after").toCompletableFuture().get(60, TimeUnit.SECONDS);
        session.awaitFrame(message("\"after\""));
        assertThat(session.received).doesNotContain(frame);
        assertThat(session.closeStatus).isNotDone();
    }

    @Test
    void anonymousAndNullIdentitiesAreRefusedAtTheCall() {
        assertThatThrownBy(() -> identities.broadcast(Map.of(), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> identities.disconnect(Map.of(), true)).isInstanceOf(IllegalArgumentException.class);
        assertThat(CableIdentities.channel(Map.of("user", "42", "org", "a&b=c")))
                .isEqualTo("cable:identity:org=a%26b%3Dc&user=42");
    }

    /** A connection of {@code user}, subscribed to its own identity channel (confirmed: it receives from now on). */
    private WsClient inbox(String user) throws Exception {
        WsClient client = connect(user);
        client.send(command("subscribe", INBOX));
        client.awaitFrame(confirmation(INBOX));
        return client;
    }

    private WsClient connect(String user) throws Exception {
        WsClient client = WsClient.connect(vertx, base, "/cable?user=" + user, V1);
        clients.add(client);
        client.awaitFrame("{\"type\":\"welcome\"}");
        return client;
    }

    /** A broadcast to the inbox subscription (not a ping, a confirmation or a disconnect). */
    static boolean isBroadcast(String frame) {
        return frame.startsWith("{\"identifier\":" + Json.encode(INBOX) + ",\"message\":");
    }

    private static String message(String json) {
        return "{\"identifier\":" + Json.encode(INBOX) + ",\"message\":" + json + "}";
    }

    private static String command(String command, String identifier) {
        return new JsonObject().put("command", command).put("identifier", identifier).encode();
    }

    private static String confirmation(String identifier) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}";
    }
}
