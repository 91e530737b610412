package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * The endpoint is a plain Vert.x route of the extension: an application with neither Quarkus REST nor any resource
 * serves it, at a configured path; the default path is then not served.
 */
class HttpBroadcastEndpointTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.enabled", "true")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.path", "/publish")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.secret", "endpoint-test-s3cret");

    @Inject
    Cable cable;

    @TestHTTPResource("/")
    URI base;

    @Test
    void servesTheConfiguredPathWithoutRest() throws Exception {
        List<CableMessage> received = new CopyOnWriteArrayList<>();
        cable.subscribe("news", received::add).confirmed().toCompletableFuture().get();
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> published = client.send(HttpRequest.newBuilder(base.resolve("/publish"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer endpoint-test-s3cret")
                .POST(HttpRequest.BodyPublishers.ofString("{\"stream\":\"news\",\"data\":\"{\\\"n\\\":1}\"}"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(published.statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> received.size() == 1);
        assertThat(received.get(0).text()).isEqualTo("{\"n\":1}");

        HttpResponse<String> defaultPath = client.send(HttpRequest.newBuilder(base.resolve("/_broadcast"))
                .header("Authorization", "Bearer endpoint-test-s3cret")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(defaultPath.statusCode()).isEqualTo(404);
    }
}
