package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Credentials that expire ({@code quarkus.identity.expire-time} on the security identity, as SmallRye JWT and OIDC set
 * it from a token's {@code exp}): an Action Cable connection with an expired token is told {@code token_expired}
 * instead of welcomed, one whose token expires while it is open is told so at that time and closed, and
 * {@code @anycable/core}'s tokenRefresher reconnects with a fresh token (src/test/js/tokens.test.js), as does
 * {@code @anycable/web}'s in headless Chromium with {@code fetchTokenFromHTML()} and the test application's
 * {@code /token-page} (src/test/js/tokens-browser.test.js; Node and {@code /usr/bin/chromium} are required: without
 * them that test fails rather than skips); a Server-Sent Events stream ends at its expiry, and one asked for with
 * expired credentials is answered 401. The test application's token is
 * {@code ?token=<user>.<expiry in epoch seconds>} ({@code TestTokenAuthentication}), or the same token as an
 * {@code anycable-token.<token>} sub-protocol.
 */
@QuarkusTest
@DatabaseIndependent
public class TokenExpiryTest {

    private static final String V1 = "actioncable-v1-json";
    private static final String EXPIRED = "{\"type\":\"disconnect\",\"reason\":\"token_expired\",\"reconnect\":false}";
    private static final String WELCOME = "{\"type\":\"welcome\"}";
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void anExpiredTokenIsToldSoNotWelcomed() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable?token=ann." + inSeconds(-10), V1)) {
            assertThat(client.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
            assertThat(client.received).containsExactly(EXPIRED);
        }
    }

    /**
     * {@code @anycable/core}'s {@code websocketAuthStrategy: 'sub-protocol'}: the token as a second sub-protocol,
     * {@code anycable-token.<token>}, authenticates the upgrade as a bearer token would, and is never negotiated.
     */
    @Test
    void aTokenOfferedAsASubProtocolIdentifiesTheConnection() throws Exception {
        assertSpeaksAs("carol", "anycable-token.carol." + inSeconds(3600));
    }

    /** WebSockets Next's form of the same (propagate-subprotocol-headers is on in this application) works here too. */
    @Test
    void anAuthorizationHeaderInWebSocketsNextsSubProtocolFormIdentifiesTheConnection() throws Exception {
        assertSpeaksAs("erin", "quarkus-http-upgrade#Authorization#Bearer%20erin." + inSeconds(3600));
    }

    private void assertSpeaksAs(String user, String credentials) throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1, credentials)) {
            assertThat(client.subProtocol).isEqualTo(V1);
            client.awaitFrame(WELCOME);
            String chat = new JsonObject().put("channel", "ChatChannel").put("room", Channels.unique("sub-token")).encode();
            client.send(new JsonObject().put("command", "subscribe").put("identifier", chat).encode());
            client.awaitFrame(new JsonObject().put("identifier", chat).put("type", "confirm_subscription").encode());
            client.send(new JsonObject().put("command", "message").put("identifier", chat)
                    .put("data", new JsonObject().put("action", "speak").put("text", "who").encode()).encode());
            client.awaitFrame(new JsonObject().put("identifier", chat)
                    .put("message", new JsonObject().put("text", "who").put("user", user)).encode());
        }
    }

    @Test
    void anExpiredTokenOfferedAsASubProtocolIsToldSo() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1, "anycable-token.ann." + inSeconds(-10))) {
            assertThat(client.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
            assertThat(client.received).containsExactly(EXPIRED);
        }
    }

    @Test
    void aTokenThatExpiresWhileOpenClosesTheConnectionThenAndNoOther() throws Exception {
        try (WsClient lasting = WsClient.connect(vertx, base, "/cable?token=bob." + inSeconds(3600), V1);
                WsClient expiring = WsClient.connect(vertx, base, "/cable?token=ann." + inSeconds(EXPIRES_SOON),
                        V1)) {
            lasting.awaitFrame(WELCOME);
            expiring.awaitFrame(WELCOME);
            String chat = new JsonObject().put("channel", "ChatChannel").put("room", Channels.unique("expiry")).encode();
            expiring.send(new JsonObject().put("command", "subscribe").put("identifier", chat).encode());
            assertThat(expiring.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
            assertThat(expiring.received).startsWith(WELCOME).contains(EXPIRED);
            assertThat(expiring.received.indexOf(EXPIRED)).isGreaterThan(0);
            // Not before its time: the connection lived until the token's expiry (whole seconds, so up to 1 s early).
            assertThat(lasting.closeStatus).isNotDone();
            assertThat(lasting.received).doesNotContain(EXPIRED);
        }
    }

    @Test
    void anSseStreamEndsWhenItsTokenExpiresAndAnExpiredOneIsRefused() throws Exception {
        String channel = Channels.unique("sse-expiry");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<InputStream> expired = http.send(events(channel, "ann." + inSeconds(-10)),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = expired.body()) {
            assertThat(expired.statusCode()).isEqualTo(401);
        }
        HttpResponse<Stream<String>> lasting = http.send(events(channel, "bob." + inSeconds(3600)),
                HttpResponse.BodyHandlers.ofLines());
        HttpResponse<Stream<String>> expiring = http.send(events(channel, "ann." + inSeconds(EXPIRES_SOON)),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(lasting.statusCode()).isEqualTo(200);
        assertThat(expiring.statusCode()).isEqualTo(200);
        // The expiring stream's response ends (its lines run out) at the expiry; bounded by the test's timeout.
        CompletableFuture<Long> ended = CompletableFuture.supplyAsync(() -> expiring.body().count());
        ended.get(60, TimeUnit.SECONDS);
        // The other one is still open: a broadcast after the end reaches it.
        String text = Channels.unique("still-open");
        CompletableFuture<Boolean> heard = CompletableFuture
                .supplyAsync(() -> lasting.body().anyMatch(line -> line.contains(text)));
        cable.broadcast(channel, text).toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(heard.get(60, TimeUnit.SECONDS)).isTrue();
    }

    private HttpRequest events(String channel, String token) {
        return HttpRequest.newBuilder(base.resolve("/events/" + channel + "?token=" + token))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60)).GET().build();
    }

    @Test
    void theTokenRefresherOfAnyCableReconnectsWithAFreshToken() throws Exception {
        NodeTests.assertPasses(base, "tokens.test.js", 2);
    }

    @Test
    void theTokenRefresherOfAnyCableWebInChromiumFetchesAFreshTokenAndReconnects() throws Exception {
        NodeTests.assertPasses(base, "tokens-browser.test.js", 1);
    }

    /**
     * The lifetime of a token that is to expire during a case: long enough for the connection or stream to be set up
     * first on a loaded machine (the expiry is in whole seconds, so it comes up to a second early); a token that expired
     * before the welcome would fail the case for the wrong reason.
     */
    private static final long EXPIRES_SOON = 10;

    private static long inSeconds(long seconds) {
        return Instant.now().getEpochSecond() + seconds;
    }
}
