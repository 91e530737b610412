package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** The WebSockets page's RoomAuthorization: the staff room needs role staff (nobody here has it), others are public. */
@QuarkusTest
class StreamAuthorizationPageTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void theStaffRoomIsRefusedOnEveryFrontEnd() throws Exception {
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        client.newWebSocketBuilder().buildAsync(URI.create("ws://" + base.getHost() + ":" + base.getPort()
                + "/ready-rooms/staff"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }
                }).get(60, TimeUnit.SECONDS);
        assertThat(closed.get(60, TimeUnit.SECONDS)).isEqualTo(1008);

        HttpResponse<InputStream> events = client.send(HttpRequest.newBuilder(base.resolve("/events/staff"))
                .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = events.body()) {
            assertThat(events.statusCode()).isEqualTo(403);
        }
    }
}
