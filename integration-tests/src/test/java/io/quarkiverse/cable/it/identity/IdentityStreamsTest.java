package io.quarkiverse.cable.it.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.streams.StreamAuthorizationTest;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Identities on the other fronts. A WebSockets Next connection authenticated as alice (the application has a
 * {@code StreamAuthorization} bean, so the upgrade's identity is recorded) is identity {@code user=alice}: it may stream
 * its own identity channel, not another's nor the control channel, and a remote disconnect of {@code user=alice}
 * closes it (1000, "remote") while an anonymous connection stays open. SSE refuses the same names with 403.
 */
@OncePerServer
@QuarkusTest
public class IdentityStreamsTest {

    @Inject
    CableIdentities identities;

    @TestHTTPResource("/")
    URI base;

    @Test
    void webSocketsNextConnectionsStreamOnlyTheirOwnIdentityAndAreDisconnected() throws Exception {
        String own = CableIdentities.channel(Map.of("user", "alice"));
        String other = CableIdentities.channel(Map.of("user", "bob"));
        try (WsClient alice = WsClient.connectWith(base, "/private-feed", StreamAuthorizationTest.ALICE);
                WsClient anonymous = WsClient.connectWith(base, "/private-feed", Map.of())) {
            for (String refused : List.of(other, IdentityChannels.CONTROL)) {
                alice.send("start:" + refused);
                alice.awaitFrame("refused:" + refused + ":Forbidden");
            }
            anonymous.send("start:" + own);
            anonymous.awaitFrame("refused:" + own + ":Forbidden");
            alice.send("start:" + own);
            alice.awaitFrame("started:" + own);
            identities.broadcast(Map.of("user", "alice"), "for alice").toCompletableFuture().get(60, TimeUnit.SECONDS);
            alice.awaitFrame("for alice");

            identities.disconnect(Map.of("user", "alice"), true).toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertThat(alice.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
            assertThat(alice.closeReason).isEqualTo("remote");
            anonymous.send("start:feed-" + System.nanoTime());
            anonymous.awaitFrames(2);
            assertThat(anonymous.received.get(1)).startsWith("started:");
            assertThat(anonymous.closeStatus).isNotDone();
        }
    }

    @Test
    void sseRefusesAnotherIdentitysChannelTheControlChannelAndWhisperChannels() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (String channel : List.of(CableIdentities.channel(Map.of("user", "bob")), IdentityChannels.CONTROL,
                IdentityChannels.WHISPERS)) {
            for (Map<String, String> who : List.of(Map.<String, String> of(), StreamAuthorizationTest.ALICE)) {
                HttpRequest.Builder request = HttpRequest.newBuilder(
                        base.resolve("/events/" + URLEncoder.encode(channel, StandardCharsets.UTF_8)))
                        .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60));
                who.forEach(request::header);
                HttpResponse<InputStream> refused = client.send(request.GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream body = refused.body()) {
                    assertThat(refused.statusCode()).as("%s as %s", channel, who).isEqualTo(403);
                }
            }
        }
    }
}
