package io.quarkiverse.cable.test;

import static io.quarkiverse.cable.test.OriginEndpoints.handshake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.vertx.core.Vertx;

/**
 * The default origin policy plus one allowed origin: a page of another site is refused (403) before identification
 * or the endpoint's {@code @OnOpen} runs, on the Action Cable endpoint and on WebSockets Next endpoints that stream cable
 * channels; the same origin, an allowed origin and a handshake without {@code Origin} pass.
 */
class OriginCheckTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(OriginEndpoints.classes()))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.origin.allowed", "https://app.example.com,https://*.example.org");

    @Inject
    Vertx vertx;

    @Inject
    @Internal
    CableEngine engine;

    @TestHTTPResource("/")
    URI base;

    @BeforeEach
    void reset() {
        OriginEndpoints.reset();
    }

    private String self() {
        return "http://" + base.getHost() + ":" + base.getPort();
    }

    @Test
    void actionCableRefusesAForeignOriginBeforeIdentification() throws Exception {
        long refusedBefore = engine.stats().failures(Failure.ORIGIN);
        assertThat(handshake(vertx, base, "/cable", "https://evil.example", "actioncable-v1-json")).isEqualTo(403);
        assertThat(handshake(vertx, base, "/cable", "null", "actioncable-v1-json")).isEqualTo(403);
        assertThat(handshake(vertx, base, "/cable", "https://" + base.getHost() + ":" + base.getPort(),
                "actioncable-v1-json")).as("same host, other scheme").isEqualTo(403);
        assertThat(handshake(vertx, base, "/cable", "https://example.org", "actioncable-v1-json"))
                .as("*.example.org is only the subdomains").isEqualTo(403);
        assertThat(OriginEndpoints.IDENTIFIED.get()).as("identification never ran").isZero();
        assertThat(engine.stats().failures(Failure.ORIGIN)).isEqualTo(refusedBefore + 4);

        assertThat(handshake(vertx, base, "/cable", self(), "actioncable-v1-json")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/cable", "https://app.example.com", "actioncable-v1-json")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/cable", "https://APP.example.com:443", "actioncable-v1-json")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/cable", "https://eu.example.org", "actioncable-v1-json")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/cable", null, "actioncable-v1-json")).as("no Origin").isEqualTo(101);
        await().atMost(60, TimeUnit.SECONDS).until(() -> OriginEndpoints.IDENTIFIED.get() == 5);
    }

    @Test
    void streamFromEndpointRefusesAForeignOriginBeforeOpening() throws Exception {
        assertThat(handshake(vertx, base, "/rooms/a", "https://evil.example")).isEqualTo(403);
        assertThat(OriginEndpoints.ROOM_OPENED.get()).isZero();
        assertThat(handshake(vertx, base, "/rooms/a", self())).isEqualTo(101);
        assertThat(handshake(vertx, base, "/rooms/a", "https://app.example.com")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/rooms/a", null)).isEqualTo(101);
        await().atMost(60, TimeUnit.SECONDS).until(() -> OriginEndpoints.ROOM_OPENED.get() == 3);
    }

    @Test
    void cableStreamsEndpointRefusesAForeignOriginBeforeOpening() throws Exception {
        assertThat(handshake(vertx, base, "/feed", "https://evil.example")).isEqualTo(403);
        assertThat(OriginEndpoints.FEED_OPENED.get()).isZero();
        assertThat(handshake(vertx, base, "/feed", self())).isEqualTo(101);
        await().atMost(60, TimeUnit.SECONDS).until(() -> OriginEndpoints.FEED_OPENED.get() == 1);
    }

    @Test
    void endpointsThatStreamNoCableAreLeftAlone() throws Exception {
        assertThat(handshake(vertx, base, "/plain", "https://evil.example")).isEqualTo(101);
    }
}
