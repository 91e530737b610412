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

/** With {@code allow-missing=false}, a handshake without {@code Origin} is refused on both endpoint kinds. */
class OriginMissingRefusedTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(OriginEndpoints.classes()))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.origin.allow-missing", "false");

    @Inject
    Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aHandshakeWithoutOriginIsRefused() throws Exception {
        OriginEndpoints.reset();
        assertThat(handshake(vertx, base, "/cable", null, "actioncable-v1-json")).isEqualTo(403);
        assertThat(handshake(vertx, base, "/rooms/a", null)).isEqualTo(403);
        assertThat(OriginEndpoints.IDENTIFIED.get()).isZero();
        assertThat(OriginEndpoints.ROOM_OPENED.get()).isZero();
        String self = "http://" + base.getHost() + ":" + base.getPort();
        assertThat(handshake(vertx, base, "/cable", self, "actioncable-v1-json")).isEqualTo(101);
        assertThat(handshake(vertx, base, "/rooms/a", self)).isEqualTo(101);
        await().atMost(60, TimeUnit.SECONDS)
                .until(() -> OriginEndpoints.IDENTIFIED.get() == 1 && OriginEndpoints.ROOM_OPENED.get() == 1);
    }
}
