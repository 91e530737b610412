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

/** {@code quarkus.cable.client.path} moves the module, below {@code quarkus.http.root-path}; the default path is free. */
class ClientScriptPathTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(ClientModule.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.http.root-path", "/app")
            .overrideRuntimeConfigKey("quarkus.cable.client.path", "/assets/cable-1.js");

    @TestHTTPResource("/")
    URI base;

    @Test
    void servedAtTheConfiguredPath() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI server = URI.create("http://" + base.getHost() + ":" + base.getPort());
        HttpResponse<byte[]> moved = http.send(HttpRequest.newBuilder(server.resolve("/app/assets/cable-1.js")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(moved.statusCode()).isEqualTo(200);
        assertThat(moved.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(moved.body()).isEqualTo(ClientModule.bytes());

        HttpResponse<String> old = http.send(HttpRequest.newBuilder(server.resolve("/app/_cable/cable.js")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(old.statusCode()).isEqualTo(404);
    }
}
