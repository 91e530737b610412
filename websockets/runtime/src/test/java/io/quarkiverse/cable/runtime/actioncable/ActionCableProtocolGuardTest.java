package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;

/**
 * The guard on a Vert.x server of its own: what it leaves of the offered sub-protocols is what the server would
 * negotiate from. (StreamFromEndpointTest checks the negotiation itself on a running application.)
 */
class ActionCableProtocolGuardTest {

    private static Vertx vertx;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        client = vertx.createHttpClient();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void actionCablesNamesLeaveTheOffer() throws Exception {
        ActionCableProtocolGuard guard = new ActionCableProtocolGuard(List.of());
        assertThat(offeredAfter(guard, "actioncable-v1-json, chat, actioncable-v1-ext-json,actioncable-unsupported"))
                .isEqualTo("chat");
        // Nothing else offered: no sub-protocol header is left, so none is negotiated.
        assertThat(offeredAfter(guard, "actioncable-v1-json")).isEqualTo("null");
        assertThat(offeredAfter(guard, "chat, bearer-token-carrier")).isEqualTo("chat, bearer-token-carrier");
    }

    @Test
    void namesTheApplicationListsItselfStay() throws Exception {
        ActionCableProtocolGuard guard = new ActionCableProtocolGuard(List.of("actioncable-v1-json"));
        assertThat(offeredAfter(guard, "actioncable-v1-json, actioncable-unsupported"))
                .isEqualTo("actioncable-v1-json");
    }

    /** The {@code Sec-WebSocket-Protocol} header a request offering {@code protocols} has after the guard. */
    private static String offeredAfter(ActionCableProtocolGuard guard, String protocols) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            guard.withoutActionCable(request);
            request.response().end(String.valueOf(request.getHeader("Sec-WebSocket-Protocol")));
        }).listen(0).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        try {
            return client.request(new RequestOptions().setHost("127.0.0.1").setPort(server.actualPort()).setURI("/chat")
                    .addHeader("Sec-WebSocket-Protocol", protocols))
                    .compose(request -> request.send().compose(response -> response.body()))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).toString();
        } finally {
            server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
