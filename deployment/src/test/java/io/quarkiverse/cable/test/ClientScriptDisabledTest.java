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

/** With {@code quarkus.cable.client.enabled=false}, nothing answers at the module's path. */
class ClientScriptDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.client.enabled", "false");

    @TestHTTPResource("/_cable/cable.js")
    URI script;

    @Test
    void notServed() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(script).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).doesNotContain("createCable");
    }
}
