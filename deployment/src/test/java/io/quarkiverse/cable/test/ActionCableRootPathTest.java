package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * Under {@code quarkus.http.root-path}, the Action Cable endpoint is at the root path plus the mount path, and a
 * bearer token offered as a sub-protocol there still becomes the request's {@code Authorization} header (the token
 * filter compares the path the server sees, root path included).
 */
class ActionCableRootPathTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(BearerIdentification.class, TextFrames.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.http.root-path", "/app");

    /** Identifies a connection by its bearer token; rejects one without. */
    @Singleton
    public static class BearerIdentification implements CableIdentification {
        @Override
        public Map<String, String> identify(CableRequest request) {
            String authorization = request.header("Authorization");
            return authorization == null || !authorization.startsWith("Bearer ") ? null
                    : Map.of("user", authorization.substring("Bearer ".length()));
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Test
    void theTokenInTheSubProtocolIdentifiesUnderTheRootPath() throws Exception {
        List<String> frames = new CopyOnWriteArrayList<>();
        URI endpoint = URI.create("ws://" + base.getHost() + ":" + base.getPort() + "/app/cable");
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .subprotocols("actioncable-v1-json", "anycable-token.ann")
                .buildAsync(endpoint, new TextFrames(frames::add)).get(60, TimeUnit.SECONDS);
        try {
            assertThat(socket.getSubprotocol()).isEqualTo("actioncable-v1-json");
            await().atMost(60, TimeUnit.SECONDS).until(() -> !frames.isEmpty());
            assertThat(frames.get(0)).contains("welcome").doesNotContain("unauthorized");
        } finally {
            socket.abort();
        }
    }
}
