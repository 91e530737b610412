package io.quarkiverse.cable.test;

import static io.quarkiverse.cable.test.OriginEndpoints.handshake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.vertx.core.Vertx;

/** The explicit opt-out ({@code check=false}) lets every origin connect, as Rails' forgery protection switch does. */
class OriginCheckDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(OriginEndpoints.classes()))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.origin.check", "false");

    @Inject
    Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyOriginPasses() throws Exception {
        OriginEndpoints.reset();
        assertThat(handshake(vertx, base, "/cable", "https://evil.example", "actioncable-v1-json")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/rooms/a", "https://evil.example")).isEqualTo(101);
        await().atMost(60, TimeUnit.SECONDS)
                .until(() -> OriginEndpoints.IDENTIFIED.get() == 1 && OriginEndpoints.ROOM_OPENED.get() == 1);
    }
}
