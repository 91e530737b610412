package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.OpenConnections;
import io.smallrye.mutiny.Uni;

/**
 * The Action Cable endpoint is a WebSockets Next endpoint at the mount path set at build time, in an application
 * without a WebSockets Next endpoint of its own: the application's {@link HttpUpgradeCheck} keyed by the endpoint's
 * id decides its upgrades, its connections are among WebSockets Next's {@link OpenConnections}, and identification
 * sees the upgrade request's path, headers, cookies and query parameters.
 */
class ActionCableOnWebSocketsNextTest {

    private static final String ENDPOINT_ID = "io.quarkiverse.cable.action-cable";

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RefuseMarkedRequests.class, SeenRequests.class, TextFrames.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.action-cable.mount-path", "/live/cable");

    /** The application's own rule for the Action Cable endpoint: a request marked {@code X-Refuse} gets 403. */
    @ApplicationScoped
    public static class RefuseMarkedRequests implements HttpUpgradeCheck {
        @Override
        public boolean appliesTo(String endpointId) {
            return ENDPOINT_ID.equals(endpointId);
        }

        @Override
        public Uni<CheckResult> perform(HttpUpgradeContext context) {
            return context.httpRequest().getHeader("X-Refuse") != null ? CheckResult.rejectUpgrade(403)
                    : CheckResult.permitUpgrade();
        }
    }

    /** Identifies every connection as {@code ann}, and keeps what it saw of each request. */
    @Singleton
    public static class SeenRequests implements CableIdentification {
        static final List<String> SEEN = new CopyOnWriteArrayList<>();

        @Override
        public Map<String, String> identify(CableRequest request) {
            SEEN.add(request.path() + " " + request.header("X-Tenant") + " " + request.cookie("session") + " "
                    + request.queryParam("room") + " " + request.query().get("tag"));
            return Map.of("user", "ann");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    OpenConnections connections;

    @Test
    void theApplicationsUpgradeCheckAndConnectionRegistryCoverTheEndpoint() throws Exception {
        URI endpoint = URI.create("ws://" + base.getHost() + ":" + base.getPort() + "/live/cable");
        assertThatThrownBy(() -> HttpClient.newHttpClient().newWebSocketBuilder()
                .header("X-Refuse", "yes")
                .subprotocols("actioncable-v1-json")
                .buildAsync(endpoint, new TextFrames(frame -> {
                })).get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(WebSocketHandshakeException.class,
                        refused -> assertThat(refused.getResponse().statusCode()).isEqualTo(403));

        List<String> frames = new CopyOnWriteArrayList<>();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .header("X-Tenant", "acme")
                .header("Cookie", "theme=dark; session=s%3D1")
                .subprotocols("actioncable-v1-json")
                .buildAsync(URI.create(endpoint + "?room=lobby%20one&tag=a&tag=b"), new TextFrames(frames::add))
                .get(60, TimeUnit.SECONDS);
        try {
            assertThat(socket.getSubprotocol()).isEqualTo("actioncable-v1-json");
            await().atMost(60, TimeUnit.SECONDS).until(() -> !frames.isEmpty());
            assertThat(frames.get(0)).isEqualTo("{\"type\":\"welcome\"}");
            assertThat(connections.findByEndpointId(ENDPOINT_ID)).hasSize(1);
            assertThat(SeenRequests.SEEN).containsExactly("/live/cable acme s%3D1 lobby one [a, b]");
        } finally {
            socket.abort();
        }
        await().atMost(60, TimeUnit.SECONDS).until(() -> connections.findByEndpointId(ENDPOINT_ID).isEmpty());
    }
}
