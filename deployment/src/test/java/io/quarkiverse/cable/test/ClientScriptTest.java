package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * The browser client at its default path: the module of the quarkus-cable-client jar byte for byte, as JavaScript,
 * with its SHA-256 as a strong ETag that a revalidating browser gets {@code 304} for.
 */
class ClientScriptTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(ClientModule.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory");

    @TestHTTPResource("/_cable/cable.js")
    URI script;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesTheBundledModule() throws Exception {
        byte[] module = ClientModule.bytes();
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(script).build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(response.headers().firstValue("ETag")).hasValue(ClientModule.etag());
        assertThat(response.body()).isEqualTo(module);
        String text = new String(module, StandardCharsets.UTF_8);
        assertThat(text).startsWith("/*!").contains(" * @anycable/web ", " * @anycable/core ", " * nanoevents ")
                .contains("Permission is hereby granted").contains("createCable");
    }

    @Test
    void revalidationWithTheTagIsNotModified() throws Exception {
        String tag = ClientModule.etag();
        for (String ifNoneMatch : new String[] { tag, "W/" + tag, "\"other\", " + tag, "*" }) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(script).header("If-None-Match", ifNoneMatch)
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(ifNoneMatch).isEqualTo(304);
            assertThat(response.headers().firstValue("ETag")).hasValue(tag);
            assertThat(response.body()).isEmpty();
        }
        HttpResponse<String> stale = http.send(HttpRequest.newBuilder(script).header("If-None-Match", "\"older\"")
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stale.statusCode()).isEqualTo(200);
        assertThat(stale.body()).contains("createCable");
    }

    @Test
    void headHasTheHeadersAndNoBody() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(script)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(response.headers().firstValue("ETag")).hasValue(ClientModule.etag());
        assertThat(response.headers().firstValue("Content-Length")).hasValue(String.valueOf(ClientModule.bytes().length));
        assertThat(response.body()).isEmpty();
    }

    @Test
    void otherMethodsAreNotAllowed() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(script)
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(405);
    }
}
