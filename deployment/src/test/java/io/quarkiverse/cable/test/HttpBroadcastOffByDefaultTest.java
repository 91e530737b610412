package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/** Without {@code quarkus.cable.http-broadcast.enabled}, nothing answers at the endpoint's path. */
class HttpBroadcastOffByDefaultTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.secret", "s3cret");

    @TestHTTPResource("/")
    URI base;

    @Test
    void notServed() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("/_broadcast"))
                .header("Authorization", "Bearer s3cret")
                .POST(HttpRequest.BodyPublishers.ofString("{\"stream\":\"news\",\"data\":\"x\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(404);
    }
}
