package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.WebSocketClientConnection;

/** The guide's and the WebSockets page's listeners and endpoints, driven by real WebSocket clients. */
@QuarkusTest
class WebSocketPagesTest {

    @Inject
    Cable cable;

    @Inject
    Subscriptions subscriptions;

    @Inject
    Announcer announcer;

    @Inject
    Instance<BasicWebSocketConnector> connectors;

    @TestHTTPResource("/")
    URI base;

    @Test
    void theGuidesListenerPrintsWhatItReceives() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        Subscription subscription;
        try {
            subscription = subscriptions.listen(() -> {
                await().atMost(30, TimeUnit.SECONDS).until(() -> text(printed)
                        .contains("from now on every broadcast is delivered"));
                join(cable.broadcast("chat:42", "from the guide"));
                await().atMost(30, TimeUnit.SECONDS).until(() -> text(printed).contains("on chat:42: from the guide"));
            });
        } finally {
            System.setOut(original);
        }
        subscription.close(); // the second close the guide promises is harmless
    }

    @Test
    void aListenerWritesToItsConnection() {
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connect("/manual-rooms/manual", null, received);
        try {
            // The endpoint has no readiness signal: the client speaks until its own broadcast comes back.
            await().atMost(30, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(500)).until(() -> {
                client.sendTextAndAwait("anyone?");
                return received.contains("anyone?");
            });
        } finally {
            client.closeAndAwait();
        }
    }

    @Test
    void streamFromWithConfirmation() {
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connect("/ready-rooms/lobby", null, received);
        try {
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.contains("ready"));
            announcer.announce();
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.size() >= 2);
            assertThat(received).containsExactly("ready", "{\"text\":\"hello\"}");
        } finally {
            client.closeAndAwait();
        }
    }

    @Test
    void streamsStartedOnCommand() {
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connect("/feed", null, received);
        try {
            client.sendTextAndAwait("news:feed");
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.contains("started:news:feed"));
            join(cable.broadcast("news:feed", "extra"));
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.size() >= 2);
            assertThat(received).containsExactly("started:news:feed", "extra");
        } finally {
            client.closeAndAwait();
        }
    }

    @Test
    void aCallbackFiltersAndRendersPerConnection() {
        List<String> pro = new CopyOnWriteArrayList<>();
        List<String> anonymous = new CopyOnWriteArrayList<>();
        WebSocketClientConnection proClient = connect("/visible-prices", "pro", pro);
        WebSocketClientConnection anonymousClient = connect("/visible-prices", null, anonymous);
        try {
            await().atMost(30, TimeUnit.SECONDS).until(() -> pro.contains("ready") && anonymous.contains("ready"));
            join(cable.broadcast("prices", new Price("BIG", 2_000_000)));
            join(cable.broadcast("prices", new Price("SMALL", 5)));
            await().atMost(30, TimeUnit.SECONDS).until(() -> pro.size() >= 3 && anonymous.size() >= 2);
            assertThat(pro).containsExactly("ready", "BIG 2000000", "SMALL 5");
            assertThat(anonymous).containsExactly("ready", "SMALL 5"); // BIG was filtered out, in channel order
        } finally {
            proClient.closeAndAwait();
            anonymousClient.closeAndAwait();
        }
    }

    private WebSocketClientConnection connect(String path, String user, List<String> received) {
        BasicWebSocketConnector connector = connectors.get().baseUri(base).path(path)
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING) // in order
                .onTextMessage((connection, text) -> received.add(text));
        if (user != null) {
            connector.addHeader("X-User", user);
        }
        return connector.connectAndAwait();
    }

    private static String text(ByteArrayOutputStream printed) {
        synchronized (printed) {
            return printed.toString(StandardCharsets.UTF_8);
        }
    }

    static void join(java.util.concurrent.CompletionStage<Void> stage) {
        try {
            CompletableFuture<Void> future = stage.toCompletableFuture();
            future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
