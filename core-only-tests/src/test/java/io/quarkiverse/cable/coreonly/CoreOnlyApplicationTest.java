package io.quarkiverse.cable.coreonly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * An application with quarkus-cable-core alone: no datasource, no Agroal, no Narayana, no WebSockets Next on its class
 * path. It builds, picks the memory adapter by itself, delivers to in-process subscribers and streams server-sent
 * events.
 */
class CoreOnlyApplicationTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Events.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false");

    @Inject
    Cable cable;

    @TestHTTPResource("/events/lobby")
    URI lobby;

    /** What the core's own artifact must not bring: the database adapter's and the WebSocket front ends' stacks. */
    @ParameterizedTest
    @ValueSource(strings = { "io.agroal.api.AgroalDataSource", "com.arjuna.ats.jta.TransactionManager",
            "io.quarkus.narayana.jta.QuarkusTransaction", "io.quarkus.websockets.next.WebSocketConnection",
            "io.quarkiverse.cable.runtime.database.DatabaseTransport",
            "io.quarkiverse.cable.runtime.actioncable.ActionCableEndpoint" })
    void isNotOnTheClassPath(String className) {
        assertThatThrownBy(() -> Class.forName(className, false, Thread.currentThread().getContextClassLoader()))
                .as(className).isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void runsOnTheMemoryAdapter() throws Exception {
        assertThat(cable.adapter()).isEqualTo("memory");
        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription subscription = cable.subscribe("chat:java",
                (CableMessage message) -> received.add(message.text()))) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            cable.broadcast("chat:java", "hello").toCompletableFuture().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> !received.isEmpty());
        }
        assertThat(received).containsExactly("hello");
    }

    /** The first event of a fresh stream tells the client it is live; a broadcast after it arrives as data. */
    @Test
    void streamsServerSentEvents() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<Stream<String>> response = client.send(HttpRequest.newBuilder(lobby)
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        try (Stream<String> lines = response.body()) {
            Iterator<String> events = lines.iterator();
            assertThat(nextStartingWith(events, "event:")).isEqualTo("event:" + CableEventStream.SUBSCRIBED);
            while (!events.next().isEmpty()) {
                // the rest of the subscribed event, up to the blank line that ends it
            }
            cable.broadcast("chat:lobby", "hi there").toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(nextStartingWith(events, "data:")).isEqualTo("data:hi there");
        }
    }

    private static String nextStartingWith(Iterator<String> lines, String prefix) {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("the stream ended before a line starting with " + prefix);
    }
}
