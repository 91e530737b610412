package io.quarkiverse.cable.it.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.authz.PrivateChannels;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The application's {@code StreamAuthorization} ({@link PrivateChannels}: {@code private:*} only for role member) on
 * each front end, over real connections: {@code @StreamFrom} refuses with 1008 before anything is streamed,
 * {@code CableStreams.start} fails with {@code CableException.Forbidden}, SSE answers 403; path parameters that would
 * change a channel's structure are refused; WebSockets Next's {@code @RolesAllowed} refuses an anonymous upgrade.
 * Refused clients receive nothing while an authorized client beside them receives every broadcast.
 */
@DatabaseIndependent
@QuarkusTest
public class StreamAuthorizationTest {

    public static final Map<String, String> ALICE = basic("alice", "alice-test-password"); // role member
    public static final Map<String, String> MALLORY = basic("mallory", "mallory-test-password"); // role visitor
    static final short POLICY_VIOLATION = 1008;

    @Inject
    Cable cable;

    @TestHTTPResource("/")
    URI base;

    @Test
    void streamFromStreamsOnlyToAnAllowedIdentity() throws Exception {
        String room = "r" + System.nanoTime();
        try (WsClient member = WsClient.connectWith(base, "/private-rooms/" + room, ALICE).awaitFrame("ready");
                WsClient anonymous = WsClient.connectWith(base, "/private-rooms/" + room, Map.of());
                WsClient visitor = WsClient.connectWith(base, "/private-rooms/" + room, MALLORY)) {
            assertRefused(anonymous);
            assertRefused(visitor);
            for (int i = 0; i < 20; i++) {
                cable.broadcast("private:" + room, "m" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            member.awaitFrames(21);
            assertThat(member.received).containsExactlyElementsOf(expected("ready", "m", 20));
            assertThat(anonymous.received).isEmpty();
            assertThat(visitor.received).isEmpty();
        }
        StreamRequest asked = PrivateChannels.ASKED.get("private:" + room);
        assertThat(asked.front()).isEqualTo(StreamRequest.Front.STREAM_FROM);
        assertThat(asked.pathParam("room")).isEqualTo(room);
        assertThat(asked.path()).isEqualTo("/private-rooms/" + room);
    }

    @Test
    void theBeanSeesTheAuthenticatedIdentityOrAnAnonymousOne() throws Exception {
        String room = "who" + System.nanoTime();
        try (WsClient member = WsClient.connectWith(base, "/private-rooms/" + room, ALICE).awaitFrame("ready")) {
            StreamRequest asked = PrivateChannels.ASKED.get("private:" + room);
            assertThat(asked.identity().isAnonymous()).isFalse();
            assertThat(asked.identity().getPrincipal().getName()).isEqualTo("alice");
            assertThat(asked.header("Authorization")).startsWith("Basic ");
        }
        String open = "who-open" + System.nanoTime();
        try (WsClient anonymous = WsClient.connect(null, base, "/rooms/" + open).awaitFrame("ready")) {
            StreamRequest asked = PrivateChannels.ASKED.get("room:" + open);
            assertThat(asked.identity()).isNotNull();
            assertThat(asked.identity().isAnonymous()).isTrue();
        }
    }

    @Test
    void aPathParameterHoldingTheTemplatesSeparatorIsRefused() throws Exception {
        String room = "42x" + System.nanoTime();
        try (WsClient healthy = WsClient.connect(null, base, "/rooms/" + room).awaitFrame("ready");
                WsClient escaped = WsClient.connect(null, base, "/rooms/" + room + "%3Aadmin");
                WsClient slash = WsClient.connect(null, base, "/rooms/" + room + "%2Fadmin");
                WsClient space = WsClient.connect(null, base, "/rooms/" + room + "%20admin")) {
            assertRefused(escaped);
            assertRefused(slash);
            assertRefused(space);
            cable.broadcast("room:" + room + ":admin", "secret").toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast("room:" + room, "public").toCompletableFuture().get(60, TimeUnit.SECONDS);
            healthy.awaitFrames(2);
            assertThat(healthy.received).containsExactly("ready", "public");
            assertThat(escaped.received).isEmpty();
            assertThat(slash.received).isEmpty();
            assertThat(space.received).isEmpty();
        }
        assertThat(PrivateChannels.ASKED).as("the bean never sees a channel the template did not mean")
                .doesNotContainKey("room:" + room + ":admin");
    }

    @Test
    void cableStreamsStartFailsWithForbiddenAndTheConnectionStaysOpen() throws Exception {
        String channel = "private:feed" + System.nanoTime();
        String open = "feed-open" + System.nanoTime();
        try (WsClient anonymous = WsClient.connectWith(base, "/private-feed", Map.of());
                WsClient member = WsClient.connectWith(base, "/private-feed", ALICE)) {
            anonymous.send("start:" + channel);
            anonymous.awaitFrame("refused:" + channel + ":Forbidden");
            anonymous.send("start:" + open);
            anonymous.awaitFrame("started:" + open);
            member.send("start:" + channel);
            member.awaitFrame("started:" + channel);
            StreamRequest asked = PrivateChannels.ASKED.get(channel);
            assertThat(asked.front()).isEqualTo(StreamRequest.Front.CABLE_STREAMS);
            assertThat(asked.identity().getPrincipal().getName()).isEqualTo("alice");

            cable.broadcast(channel, "for-members").toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(open, "for-all").toCompletableFuture().get(60, TimeUnit.SECONDS);
            member.awaitFrame("for-members");
            anonymous.awaitFrame("for-all");
            assertThat(anonymous.received).containsExactly("refused:" + channel + ":Forbidden", "started:" + open,
                    "for-all");
            assertThat(anonymous.closeStatus).isNotDone();
        }
    }

    @Test
    void sseAnswers403BeforeAnyEventAndStreamsToAnAllowedIdentity() throws Exception {
        String channel = "private:sse" + System.nanoTime();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (Map<String, String> who : List.of(Map.<String, String> of(), MALLORY)) {
            // As a stream: a broken refusal would be an endless 200 response, not a hang of this test.
            HttpResponse<InputStream> refused = client.send(sse(channel, who), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = refused.body()) {
                assertThat(refused.statusCode()).isEqualTo(403);
                assertThat(new String(body.readAllBytes(), StandardCharsets.UTF_8)).doesNotContain("data:")
                        .doesNotContain("cable-subscribed");
            }
        }

        HttpResponse<InputStream> allowed = client.send(sse(channel, ALICE), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(allowed.statusCode()).isEqualTo(200);
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(allowed.body(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null;) {
                    lines.add(line);
                }
            } catch (Exception e) {
                // closed by the test
            }
        });
        try {
            await().atMost(Collector.TIMEOUT).until(() -> lines.contains("event:cable-subscribed"));
            cable.broadcast(channel, "hello-sse").toCompletableFuture().get(60, TimeUnit.SECONDS);
            await().atMost(Collector.TIMEOUT).until(() -> lines.contains("data:hello-sse"));
        } finally {
            allowed.body().close();
            reader.interrupt();
        }
        assertThat(PrivateChannels.ASKED.get(channel).front()).isEqualTo(StreamRequest.Front.SSE);
        assertThat(PrivateChannels.ASKED.get(channel).identity().getPrincipal().getName()).isEqualTo("alice");
    }

    @Test
    void rolesAllowedOnAStreamFromEndpointRefusesTheAnonymousUpgrade() throws Exception {
        String room = "members" + System.nanoTime();
        assertThatThrownBy(() -> WsClient.connectWith(base, "/members/" + room, Map.of()))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(failure -> assertThat(((WebSocketHandshakeException) failure).getResponse().statusCode())
                        .isEqualTo(401));
        assertThatThrownBy(() -> WsClient.connectWith(base, "/members/" + room, MALLORY))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(failure -> assertThat(((WebSocketHandshakeException) failure).getResponse().statusCode())
                        .isEqualTo(403));
        try (WsClient member = WsClient.connectWith(base, "/members/" + room, ALICE)) {
            // No @OnOpen here: the broadcast is sent once the stream is live, which the bean's decision precedes.
            await().atMost(Collector.TIMEOUT).until(() -> PrivateChannels.ASKED.containsKey("members:" + room));
            cable.broadcast("members:" + room, "welcome").toCompletableFuture().get(60, TimeUnit.SECONDS);
            member.awaitFrame("welcome");
        }
    }

    /**
     * Browsers cannot set headers on a WebSocket request: WebSockets Next takes them from the sub-protocols,
     * {@code quarkus-http-upgrade#<header>#<URL-encoded value>}, when
     * {@code quarkus.websockets-next.server.propagate-subprotocol-headers} is on (it is in this application, with
     * {@code bearer-token-carrier} as the sub-protocol negotiated beside it), before Quarkus authenticates the upgrade.
     */
    @Test
    void credentialsInTheSubProtocolAuthenticateAStreamFromUpgrade() throws Exception {
        String room = "members" + System.nanoTime();
        assertThatThrownBy(() -> WsClient.connect(null, base, "/members/" + room, "bearer-token-carrier",
                inSubProtocol(MALLORY))).isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(failure -> assertThat(((WebSocketHandshakeException) failure).getResponse().statusCode())
                        .isEqualTo(403));
        try (WsClient member = WsClient.connect(null, base, "/members/" + room, "bearer-token-carrier",
                inSubProtocol(ALICE))) {
            assertThat(member.subProtocol).isEqualTo("bearer-token-carrier");
            await().atMost(Collector.TIMEOUT).until(() -> PrivateChannels.ASKED.containsKey("members:" + room));
            assertThat(PrivateChannels.ASKED.get("members:" + room).identity().getPrincipal().getName())
                    .isEqualTo("alice");
            cable.broadcast("members:" + room, "welcome").toCompletableFuture().get(60, TimeUnit.SECONDS);
            member.awaitFrame("welcome");
        }
    }

    /** The {@code Authorization} header of {@code credentials} as WebSockets Next reads it from a sub-protocol. */
    static String inSubProtocol(Map<String, String> credentials) {
        return "quarkus-http-upgrade#Authorization#"
                + URLEncoder.encode(credentials.get("Authorization"), StandardCharsets.UTF_8);
    }

    public static void assertRefused(WsClient client) throws Exception {
        assertThat(client.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo(POLICY_VIOLATION);
        assertThat(client.closeReason).isEqualTo("cable: stream refused");
    }

    private HttpRequest sse(String channel, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/events/" + channel))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60));
        headers.forEach(request::header);
        return request.GET().build();
    }

    public static List<String> expected(String first, String prefix, int count) {
        List<String> frames = new ArrayList<>();
        frames.add(first);
        for (int i = 0; i < count; i++) {
            frames.add(prefix + i);
        }
        return frames;
    }

    public static Map<String, String> basic(String user, String password) {
        return Map.of("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
}
