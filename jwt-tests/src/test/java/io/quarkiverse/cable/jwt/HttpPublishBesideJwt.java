package io.quarkiverse.cable.jwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.smallrye.jwt.build.Jwt;
import io.vertx.core.json.Json;

/**
 * The HTTP publish endpoint in an application that authenticates bearer tokens with SmallRye JWT and requires an
 * authenticated identity on every path: AnyCable's publisher sends {@code Authorization: Bearer <secret>}, which is not
 * a JWT, and is still served by the cable, while the application's own routes still need a valid token. Run with
 * proactive authentication ({@link HttpPublishBesideJwtTest}) and without ({@link HttpPublishBesideLazyJwtTest}).
 */
abstract class HttpPublishBesideJwt {

    static final String ISSUER = "https://cable.test";
    static final String SECRET = "publisher-s3cret-beside-jwt";
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The application: SmallRye JWT, every path protected, the cable's HTTP publish endpoint enabled. */
    static QuarkusUnitTest app() {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(SecuredRoute.class, HttpPublishBesideJwt.class)
                        .addAsResource("publicKey.pem").addAsResource("privateKey.pem"))
                .overrideConfigKey("quarkus.cable.adapter", "memory")
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("mp.jwt.verify.publickey.location", "publicKey.pem")
                .overrideConfigKey("mp.jwt.verify.issuer", ISSUER)
                .overrideConfigKey("smallrye.jwt.sign.key.location", "privateKey.pem")
                .overrideConfigKey("quarkus.http.auth.permission.everything.paths", "/*")
                .overrideConfigKey("quarkus.http.auth.permission.everything.policy", "authenticated")
                .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.enabled", "true")
                .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.secret", SECRET);
    }

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @TestHTTPResource("/")
    URI base;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void thePublishersBearerSecretIsServedByTheCable() throws Exception {
        List<CableMessage> received = subscribe("news");
        HttpResponse<String> published = publish("Bearer " + SECRET, "news", "{\"n\":1}");
        assertThat(published.statusCode()).as(published.body()).isEqualTo(201);
        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(received.get(0).text()).isEqualTo("{\"n\":1}");
    }

    /** The cable does not lift the application's protection: its own route still needs a valid token. */
    @Test
    void theApplicationsRoutesStillNeedAValidToken() throws Exception {
        assertThat(get("/secured", null).statusCode()).isEqualTo(401);
        assertThat(get("/secured", "Bearer " + SECRET).statusCode()).as("the cable's secret is no JWT").isEqualTo(401);
        HttpResponse<String> withToken = get("/secured", "Bearer " + token());
        assertThat(withToken.statusCode()).isEqualTo(200);
        assertThat(withToken.body()).isEqualTo("secured");
    }

    /**
     * A valid JWT is not the cable's secret: the cable refuses it (403) and a request without a credential (401), and
     * counts and logs both as its other refusals; nothing of either is broadcast.
     */
    @Test
    void aValidJwtIsNotTheCablesSecret() throws Exception {
        List<CableMessage> received = subscribe("jwt-refused");
        long invalidBefore = engine.stats().failures(Failure.INVALID);
        HttpResponse<String> withJwt = publish("Bearer " + token(), "jwt-refused", "\"jwt\"");
        assertThat(withJwt.statusCode()).isEqualTo(403);
        assertThat(withJwt.body()).isEqualTo("The bearer secret is wrong");
        HttpResponse<String> without = publish(null, "jwt-refused", "\"none\"");
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.body()).isEqualTo("A bearer secret is required");
        assertThat(engine.stats().failures(Failure.INVALID) - invalidBefore).isEqualTo(2);

        assertThat(publish("Bearer " + SECRET, "jwt-refused", "\"marker\"").statusCode()).isEqualTo(201);
        await().atMost(WAIT).until(() -> !received.isEmpty());
        assertThat(received.get(0).text()).isEqualTo("\"marker\"");
    }

    private List<CableMessage> subscribe(String channel) throws Exception {
        List<CableMessage> received = new CopyOnWriteArrayList<>();
        cable.subscribe(channel, received::add).confirmed().toCompletableFuture().get(WAIT.toSeconds(),
                TimeUnit.SECONDS);
        return received;
    }

    private HttpResponse<String> publish(String authorization, String stream, String data) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/_broadcast"))
                .header("Content-Type", "application/json").timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"stream\":\"" + stream + "\",\"data\":"
                        + Json.encode(data) + "}"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(WAIT).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A valid token, signed with the application's key (smallrye.jwt.sign.key.location). */
    private static String token() {
        return Jwt.issuer(ISSUER).upn("ann").issuedAt(Instant.now().minusSeconds(120))
                .expiresAt(Instant.now().plusSeconds(600)).sign();
    }
}
