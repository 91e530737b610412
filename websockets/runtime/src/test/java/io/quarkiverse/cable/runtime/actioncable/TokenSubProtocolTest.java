package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * The filter on a real Vert.x router: what the request looks like to the handlers after it (authentication, the
 * upgrade), echoed back as JSON.
 */
class TokenSubProtocolTest {

    private static Vertx vertx;
    private static HttpServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.route().handler(new TokenSubProtocol("/cable"));
        router.route().handler(context -> context.response().end(new JsonObject()
                .put("protocols", context.request().getHeader("Sec-WebSocket-Protocol"))
                .put("authorization", context.request().getHeader("Authorization")).encode()));
        server = vertx.createHttpServer().requestHandler(router).listen(0).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        client = vertx.createHttpClient();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void theTokenBecomesABearerTokenAndLeavesTheOfferedProtocols() throws Exception {
        JsonObject seen = request("/cable", Map.of("Sec-WebSocket-Protocol", "actioncable-v1-ext-json, anycable-token.a.b"));
        assertThat(seen.getString("protocols")).isEqualTo("actioncable-v1-ext-json");
        assertThat(seen.getString("authorization")).isEqualTo("Bearer a.b");
    }

    @Test
    void anAuthorizationHeaderOfTheRequestWins() throws Exception {
        JsonObject seen = request("/cable", Map.of("Sec-WebSocket-Protocol", "actioncable-v1-json,anycable-token.x",
                "Authorization", "Basic YWxpY2U6cHc="));
        assertThat(seen.getString("protocols")).isEqualTo("actioncable-v1-json");
        assertThat(seen.getString("authorization")).isEqualTo("Basic YWxpY2U6cHc=");
    }

    @Test
    void onlyTheFirstTokenCountsAndNoTokenEntryIsLeft() throws Exception {
        JsonObject seen = request("/cable",
                Map.of("Sec-WebSocket-Protocol", "anycable-token.first, actioncable-v1-json, anycable-token.second"));
        assertThat(seen.getString("protocols")).isEqualTo("actioncable-v1-json");
        assertThat(seen.getString("authorization")).isEqualTo("Bearer first");
    }

    @Test
    void aTokenAloneLeavesNoSubProtocolHeader() throws Exception {
        JsonObject seen = request("/cable", Map.of("Sec-WebSocket-Protocol", "anycable-token.t"));
        assertThat(seen.getString("protocols")).isNull();
        assertThat(seen.getString("authorization")).isEqualTo("Bearer t");
    }

    @Test
    void otherPathsAreLeftAlone() throws Exception {
        JsonObject seen = request("/elsewhere", Map.of("Sec-WebSocket-Protocol", "chat, anycable-token.t"));
        assertThat(seen.getString("protocols")).isEqualTo("chat, anycable-token.t");
        assertThat(seen.getString("authorization")).isNull();
    }

    @Test
    void aDisabledEndpointLeavesEveryPathAlone() throws Exception {
        Router router = Router.router(vertx);
        router.route().handler(new TokenSubProtocol(null));
        router.route().handler(context -> context.response()
                .end(String.valueOf(context.request().getHeader("Authorization"))));
        HttpServer disabled = vertx.createHttpServer().requestHandler(router).listen(0).toCompletionStage()
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
        try {
            String body = client.request(new RequestOptions().setPort(disabled.actualPort()).setHost("127.0.0.1")
                    .setURI("/cable").addHeader("Sec-WebSocket-Protocol", "anycable-token.t"))
                    .compose(request -> request.send().compose(response -> response.body()))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).toString();
            assertThat(body).isEqualTo("null");
        } finally {
            disabled.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theServedPathIsTheMountPathUnderTheRootPath() {
        assertThat(TokenSubProtocol.servedPath("/", "/cable")).isEqualTo("/cable");
        assertThat(TokenSubProtocol.servedPath("/app", "/cable")).isEqualTo("/app/cable");
        assertThat(TokenSubProtocol.servedPath("/app/", "/cable")).isEqualTo("/app/cable");
        assertThat(TokenSubProtocol.servedPath("app", "cable")).isEqualTo("/app/cable");
    }

    private static JsonObject request(String path, Map<String, String> headers) throws Exception {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1")
                .setPort(server.actualPort()).setURI(path);
        headers.forEach(options::addHeader);
        return client.request(options).compose(request -> request.send().compose(response -> response.body()))
                .map(body -> body.toJsonObject()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
