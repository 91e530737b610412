package io.quarkiverse.cable.jwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

/**
 * An application with SmallRye JWT: {@code @anycable/web}'s token in the Action Cable sub-protocol
 * ({@code anycable-token.<jwt>}) is verified by SmallRye JWT, the connection is its token's user, and it gets
 * {@code {"type":"disconnect","reason":"token_expired","reconnect":false}} when the token's {@code exp} passes (SmallRye
 * JWT's identities carry no expire-time attribute; the cable reads the token's own). A token that already expired or
 * is signed by another key is refused at the upgrade (401), by SmallRye JWT.
 */
class JwtTokenExpiryTest {

    private static final String ISSUER = "https://cable.test";
    private static final Duration WAIT = Duration.ofSeconds(60);

    /**
     * The keys are test resources (generated for these tests only): QuarkusUnitTest loads this class twice, so keys
     * made in a static field would differ between the configuration and the test.
     */
    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(WhoChannel.class, RoomSocket.class)
                    .addAsResource("publicKey.pem").addAsResource("privateKey.pem"))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("mp.jwt.verify.publickey.location", "publicKey.pem")
            .overrideConfigKey("mp.jwt.verify.issuer", ISSUER)
            .overrideConfigKey("smallrye.jwt.sign.key.location", "privateKey.pem");

    @Inject
    Vertx vertx;

    @TestHTTPResource("/cable")
    URI cableEndpoint;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    private WebSocketClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    /**
     * The token lives a few seconds, which a loaded machine may spend before the welcome, the confirmation or the
     * channel's answer: then the cable rightly says token_expired instead, and the test tries again with a longer life
     * (5, 15, 45 s), never a sleep.
     */
    @Test
    void theTokensUserSubscribesAndIsToldTokenExpiredWhenItsExpPasses() throws Exception {
        JsonObject tokenExpired = new JsonObject().put("type", "disconnect").put("reason", "token_expired")
                .put("reconnect", false);
        for (int lifetime : new int[] { 5, 15, 45 }) {
            Instant exp = Instant.ofEpochSecond(Instant.now().plusSeconds(lifetime).getEpochSecond()); // exp: seconds
            LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
            WebSocket socket = connect(token("ann", exp), frames);
            JsonObject first = next(frames);
            if (expiredEarly(first, tokenExpired, exp)) {
                continue; // the machine took longer than the token's life to welcome it
            }
            assertThat(first.getString("type")).as("%s", first).isEqualTo("welcome");
            String identifier = new JsonObject().put("channel", "WhoChannel").encode();
            socket.writeTextMessage(
                    new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
            JsonObject confirmation = next(frames);
            if (expiredEarly(confirmation, tokenExpired, exp)) {
                continue; // ... or to confirm the subscription
            }
            assertThat(confirmation.getString("type")).as("%s", confirmation).isEqualTo("confirm_subscription");
            JsonObject who = next(frames);
            if (expiredEarly(who, tokenExpired, exp)) {
                continue; // ... or to answer it
            }
            assertThat(who.getJsonObject("message")).as("%s", who).isEqualTo(new JsonObject().put("user", "ann"));

            assertThat(next(frames)).isEqualTo(tokenExpired);
            assertThat(Instant.now()).as("not before the token's exp").isAfterOrEqualTo(exp);
            return;
        }
        throw new AssertionError("every token expired before its connection was welcomed");
    }

    /** {@code frame} is the token_expired disconnect, rightly: the token's exp has passed. */
    private static boolean expiredEarly(JsonObject frame, JsonObject tokenExpired, Instant exp) {
        if (!frame.equals(tokenExpired)) {
            return false;
        }
        assertThat(Instant.now()).as("token_expired before the token's exp").isAfterOrEqualTo(exp);
        return true;
    }

    /**
     * A {@code @StreamFrom} connection with the token in its {@code Authorization} header streams until the token's
     * exp, then is closed as WebSockets Next closes an expired identity (1008, "Authentication expired"), which it does
     * not do itself for SmallRye JWT's identities. Lifetimes as above.
     */
    @Test
    void aStreamingConnectionIsClosedWhenItsTokenExpires() throws Exception {
        for (int lifetime : new int[] { 5, 15, 45 }) {
            Instant exp = Instant.ofEpochSecond(Instant.now().plusSeconds(lifetime).getEpochSecond());
            String room = "jwt-" + lifetime;
            LinkedBlockingQueue<String> texts = new LinkedBlockingQueue<>();
            CompletableFuture<Short> closed = new CompletableFuture<>();
            WebSocket socket;
            try {
                socket = open(room, token("ann", exp), texts, closed);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UpgradeRejectedException rejected && rejected.getStatus() == 401
                        && !Instant.now().isBefore(exp)) {
                    continue; // the token expired before the upgrade was authenticated
                }
                throw e;
            }
            // It streams: a broadcast arrives, unless the token expired first (then it is closed, as checked below).
            // The client cannot see when its stream started, so it broadcasts until one arrives or the close comes.
            String first = null;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (first == null && !closed.isDone() && System.nanoTime() < deadline) {
                cable.broadcast("room:" + room, "hello").toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                first = texts.poll(200, TimeUnit.MILLISECONDS);
            }
            assertThat(first == null ? closed.isDone() : first.equals("hello")).as("%s", first).isTrue();
            assertThat(closed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo((short) 1008);
            assertThat(socket.closeReason()).isEqualTo("Authentication expired");
            assertThat(Instant.now()).as("not before the token's exp").isAfterOrEqualTo(exp);
            return;
        }
        throw new AssertionError("every token expired before its upgrade was authenticated");
    }

    @Test
    void anExpiredTokenOrOneSignedByAnotherKeyIsRefusedAtTheUpgrade() throws Exception {
        String expired = token("bob", Instant.now().minusSeconds(60));
        String forged = claims("bob", Instant.now().plusSeconds(600)).sign(anotherKey());
        for (String token : List.of(expired, forged)) {
            assertThatThrownBy(() -> connect(token, new LinkedBlockingQueue<>()))
                    .hasCauseInstanceOf(UpgradeRejectedException.class)
                    .cause().extracting(e -> ((UpgradeRejectedException) e).getStatus()).isEqualTo(401);
        }
    }

    private WebSocket connect(String token, LinkedBlockingQueue<JsonObject> frames) throws Exception {
        if (client == null) {
            client = vertx.createWebSocketClient();
        }
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(cableEndpoint.getHost())
                .setPort(cableEndpoint.getPort()).setURI(cableEndpoint.getPath())
                .setSubProtocols(List.of("actioncable-v1-json", "anycable-token." + token));
        WebSocket socket = client.connect(options).toCompletionStage().toCompletableFuture()
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        socket.textMessageHandler(text -> {
            JsonObject frame = new JsonObject(text);
            if (!"ping".equals(frame.getString("type"))) {
                frames.add(frame);
            }
        });
        return socket;
    }

    private WebSocket open(String room, String token, LinkedBlockingQueue<String> texts,
            CompletableFuture<Short> closed) throws Exception {
        if (client == null) {
            client = vertx.createWebSocketClient();
        }
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(base.getHost())
                .setPort(base.getPort()).setURI("/rooms/" + room).addHeader("Authorization", "Bearer " + token);
        WebSocket socket = client.connect(options).toCompletionStage().toCompletableFuture()
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        socket.textMessageHandler(texts::add);
        socket.closeHandler(ignored -> closed.complete(socket.closeStatusCode()));
        return socket;
    }

    private static JsonObject next(LinkedBlockingQueue<JsonObject> frames) throws InterruptedException {
        JsonObject frame = frames.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(frame).as("a frame within %s", WAIT).isNotNull();
        return frame;
    }

    /** Signed with the application's key (smallrye.jwt.sign.key.location). */
    private static String token(String user, Instant exp) {
        return claims(user, exp).sign();
    }

    private static JwtClaimsBuilder claims(String user, Instant exp) {
        return Jwt.issuer(ISSUER).upn(user).issuedAt(Instant.now().minusSeconds(120)).expiresAt(exp);
    }

    private static PrivateKey anotherKey() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair().getPrivate();
    }
}
