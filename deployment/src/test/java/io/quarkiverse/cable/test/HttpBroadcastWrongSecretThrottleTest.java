package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * Wrong publish secrets are throttled per remote address, over real HTTP from two loopback addresses (127.0.0.1 and
 * 127.0.0.2): past max-wrong-secrets, the guessing address is answered 429 with Retry-After, even with the right secret
 * (which is then not compared), and counted; another address publishes with the right secret meanwhile; when the window
 * ends the first address publishes again.
 */
class HttpBroadcastWrongSecretThrottleTest {

    private static final String SECRET = "throttle-test-s3cret";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.enabled", "true")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.secret", SECRET)
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.max-wrong-secrets", "3")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.wrong-secret-window", "5s");

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @TestHTTPResource("/")
    URI base;

    @Test
    void anAddressPastItsWrongSecretsIsRefusedUntilItsWindowEnds() throws Exception {
        List<CableMessage> received = new CopyOnWriteArrayList<>();
        cable.subscribe("throttled", received::add).confirmed().toCompletableFuture().get(WAIT.toSeconds(),
                TimeUnit.SECONDS);
        HttpClient guesser = client("127.0.0.1");
        HttpClient publisher = client("127.0.0.2");
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.WRONG_SECRETS);

        // No secret is no guess: refused as always, not counted against the address.
        for (int i = 0; i < 5; i++) {
            assertThat(post(guesser, null, "\"none\"").statusCode()).isEqualTo(401);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(post(guesser, "wrong-secret-" + i, "\"guess\"").statusCode()).isEqualTo(403);
        }
        HttpResponse<String> throttled = post(guesser, "wrong-secret-3", "\"guess\"");
        assertThat(throttled.statusCode()).isEqualTo(429);
        assertThat(Integer.parseInt(throttled.headers().firstValue("Retry-After").orElseThrow())).isBetween(1, 5);
        assertThat(post(guesser, SECRET, "\"not compared\"").statusCode()).as("the right secret is not compared")
                .isEqualTo(429);
        assertThat(engine.stats().refusals(CableStats.Refusal.WRONG_SECRETS) - refusedBefore).isEqualTo(2);

        HttpResponse<String> other = post(publisher, SECRET, "\"from another address\"");
        assertThat(other.statusCode()).as(other.body()).isEqualTo(201);

        // The window (5 s from the first wrong secret) ends: the address publishes again.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .until(() -> post(guesser, SECRET, "\"after the window\"").statusCode() == 201);
        await().atMost(WAIT).until(() -> received.size() == 2);
        assertThat(received).extracting(CableMessage::text).containsExactly("from another address", "after the window");
    }

    /** A client whose connections leave from {@code address}, a loopback address of its own. */
    private static HttpClient client(String address) throws Exception {
        return HttpClient.newBuilder().localAddress(InetAddress.getByName(address)).connectTimeout(WAIT).build();
    }

    private HttpResponse<String> post(HttpClient client, String secret, String data) throws Exception {
        URI publish = URI.create("http://127.0.0.1:" + base.getPort() + "/_broadcast");
        HttpRequest.Builder request = HttpRequest.newBuilder(publish).header("Content-Type", "application/json")
                .timeout(WAIT).POST(HttpRequest.BodyPublishers.ofString("{\"stream\":\"throttled\",\"data\":" + data
                        + "}"));
        if (secret != null) {
            request.header("Authorization", "Bearer " + secret);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
