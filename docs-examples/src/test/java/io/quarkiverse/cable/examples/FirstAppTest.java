package io.quarkiverse.cable.examples;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.quarkus.websockets.next.WebSocketConnection;

/** The snippets at work: each test drives one of them as a user of the documented application would. */
@QuarkusTest
class FirstAppTest {

    @Inject
    Cable cable;

    @Inject
    QuickStart quickStart;

    @Inject
    PriceTicker ticker;

    @Inject
    CableStreams streams;

    @Inject
    OpenConnections connections;

    @Inject
    BasicWebSocketConnector connector;

    @TestHTTPResource("/")
    URI base;

    @Test
    void quickStartConfirmsItsSubscription() throws Exception {
        try (BroadcastCapture capture = BroadcastCapture.channel("chat:42")) {
            CompletionStage<Void> live = quickStart.run();
            assertThat(capture.await(1).get(0).text()).isEqualTo("{\"text\":\"hi\"}");
            // The snippet closes its subscription at once: the confirmation is then settled (live, or cancelled by
            // the close), never left pending.
            assertThat(live.toCompletableFuture().isDone()).isTrue();
        }
    }

    @Test
    void restBroadcastsReachTheStreamFromEndpoint() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connector.baseUri(base).path("/rooms/lobby")
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING) // in order
                .onTextMessage((connection, text) -> received.add(text)).connectAndAwait();
        try {
            await().atMost(30, TimeUnit.SECONDS)
                    .until(() -> !connections.findByEndpointId(RoomSocket.class.getName()).isEmpty());
            WebSocketConnection server = connections.findByEndpointId(RoomSocket.class.getName()).iterator().next();
            streams.confirmed(server).await().atMost(java.time.Duration.ofSeconds(30));

            given().contentType("text/plain").body("hello").post("/rooms/lobby/messages").then().statusCode(202);
            given().contentType("text/plain").body("again").post("/chat").then().statusCode(200)
                    .body(equalTo("sent"));
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.size() >= 2);
            assertThat(received).containsExactly("hello", "again");
        } finally {
            client.closeAndAwait();
        }
        // The guide's history query sees them too.
        given().get("/rooms/lobby/recent").then().statusCode(200).body(containsString("hello"));
    }

    @Test
    void mutinyAndObjectBroadcastsSendJson() {
        try (BroadcastCapture capture = BroadcastCapture.channel("prices")) {
            given().contentType("application/json").body("{\"symbol\":\"P\",\"cents\":1}").post("/prices")
                    .then().statusCode(204);
            ticker.tick();
            assertThat(capture.await(2).stream().map(CableMessage::text))
                    .containsExactly("{\"symbol\":\"P\",\"cents\":1}", "{\"symbol\":\"Q\",\"cents\":4200}");
        }
    }

    @Test
    void typedListenerReceivesTheTickersRecord() throws Exception {
        List<Price> seen = new CopyOnWriteArrayList<>();
        Subscription subscription = ticker.watch(seen);
        try {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            ticker.tick();
            await().atMost(30, TimeUnit.SECONDS).until(() -> !seen.isEmpty());
            assertThat(seen).containsExactly(new Price("Q", 4200));
        } finally {
            subscription.close();
        }
    }

    @Test
    void serverSentEventsResumeAfterTheLastEventId() throws Exception {
        // Delivered messages carry their stream position (the SSE event id is "<epoch>:<offset>").
        List<CableMessage> sent = new CopyOnWriteArrayList<>();
        Subscription subscription = cable.subscribe("chat:sse", sent::add);
        try {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            for (String text : List.of("one", "two", "three")) {
                cable.broadcast("chat:sse", text).toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
            await().atMost(30, TimeUnit.SECONDS).until(() -> sent.size() >= 3);
        } finally {
            subscription.close();
        }
        StreamPosition first = StreamPosition.of(sent.get(0));
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/events/sse"))
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", first.epoch() + ":" + first.offset())
                .timeout(Duration.ofSeconds(30)).build();
        HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
        List<String> data = new ArrayList<>();
        try (Stream<String> lines = response.body()) {
            Iterator<String> it = lines.iterator();
            while (data.size() < 2 && it.hasNext()) {
                String line = it.next();
                if (line.startsWith("data:")) {
                    String value = line.substring(5).trim();
                    if (!value.equals("{}")) { // the "subscribed" event
                        data.add(value);
                    }
                }
            }
        }
        assertThat(data).containsExactly("two", "three");
    }

    @Test
    void healthAndMetrics() {
        given().get("/q/health/ready").then().statusCode(200).body("checks.name", hasItem("Quarkus Cable"));
        given().get("/q/health/live").then().statusCode(200).body("checks.name", hasItem("Quarkus Cable"));
        given().get("/q/metrics").then().statusCode(200).body(containsString("cable_"));
    }
}
