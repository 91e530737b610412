package io.quarkiverse.cable.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Credentials that expire ({@code quarkus.identity.expire-time} on the security identity, as SmallRye JWT and OIDC set
 * it from a token's {@code exp}): an Action Cable connection with an expired token is told {@code token_expired}
 * instead of welcomed, one whose token expires while it is open is told so at that time and closed, and
 * {@code @anycable/core}'s tokenRefresher reconnects with a fresh token (src/test/js/tokens.test.js). The test
 * application's token is {@code ?token=<user>.<expiry in epoch seconds>} ({@code TestTokenAuthentication}).
 */
@QuarkusTest
@DatabaseIndependent
class TokenExpiryTest {

    private static final String V1 = "actioncable-v1-json";
    private static final String EXPIRED = "{\"type\":\"disconnect\",\"reason\":\"token_expired\",\"reconnect\":false}";
    private static final String WELCOME = "{\"type\":\"welcome\"}";
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

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

    @Test
    void aTokenThatExpiresWhileOpenClosesTheConnectionThenAndNoOther() throws Exception {
        try (WsClient lasting = WsClient.connect(vertx, base, "/cable?token=bob." + inSeconds(3600), V1);
                WsClient expiring = WsClient.connect(vertx, base, "/cable?token=ann." + inSeconds(2), V1)) {
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
    void theTokenRefresherOfAnyCableReconnectsWithAFreshToken() throws Exception {
        NodeTests.assertPasses(base, "tokens.test.js", 1);
    }

    private static long inSeconds(long seconds) {
        return Instant.now().getEpochSecond() + seconds;
    }
}
