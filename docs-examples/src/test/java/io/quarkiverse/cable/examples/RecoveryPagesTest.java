package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** The recovery page's resume from a stream position, and its SSE stream started from a page cursor. */
@QuarkusTest
class RecoveryPagesTest {

    @Inject
    Cable cable;

    @Inject
    Resumer resumer;

    @TestHTTPResource("/")
    URI base;

    @Test
    void resumingDeliversWhatWasMissedOrAsksForAReload() {
        List<CableMessage> delivered = new CopyOnWriteArrayList<>();
        Subscription live = cable.subscribe("chat:42", message -> {
            if (message.text().startsWith("resume-")) {
                delivered.add(message);
            }
        });
        try {
            WebSocketPagesTest.join(live.confirmed());
            for (String text : List.of("resume-1", "resume-2", "resume-3")) {
                WebSocketPagesTest.join(cable.broadcast("chat:42", text));
            }
            await().atMost(30, TimeUnit.SECONDS).until(() -> delivered.size() >= 3);
        } finally {
            live.close();
        }
        Subscription resumed = resumer.resume(delivered.get(0));
        try {
            await().atMost(30, TimeUnit.SECONDS).until(() -> resumer.rendered().size() >= 2 || !resumer.reloads().isEmpty());
            assertThat(resumer.reloads()).as("reloads (position %s)", StreamPosition.of(delivered.get(0))).isEmpty();
            assertThat(resumer.rendered()).containsExactly("resume-2", "resume-3");
        } finally {
            resumed.close();
        }

        CableMessage fromAnotherEpoch = new CableMessage(0, "chat:42", new byte[0], false, 1, "no-such-epoch");
        Subscription lost = resumer.resume(fromAnotherEpoch);
        try {
            await().atMost(30, TimeUnit.SECONDS).until(() -> !resumer.reloads().isEmpty());
            assertThat(resumer.reloads()).containsExactly(CableException.HistoryUnavailable.Reason.EPOCH_CHANGED);
        } finally {
            lost.close();
        }
    }

    @Test
    void serverSentEventsStartAfterThePageCursor() throws Exception {
        WebSocketPagesTest.join(cable.broadcast("chat:pc", "rendered"));
        String cursor = StreamPosition.cursor(cable.position("chat:pc"));
        List<CableMessage> delivered = new CopyOnWriteArrayList<>();
        Subscription live = cable.subscribe("chat:pc", delivered::add);
        try {
            WebSocketPagesTest.join(live.confirmed());
            WebSocketPagesTest.join(cable.broadcast("chat:pc", "after-1"));
            WebSocketPagesTest.join(cable.broadcast("chat:pc", "after-2"));
            await().atMost(30, TimeUnit.SECONDS).until(() -> delivered.size() >= 2);
        } finally {
            live.close();
        }
        assertThat(events("/page-events/pc?cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8), null, 2))
                .containsExactly("after-1", "after-2");
        // A reconnecting browser's Last-Event-ID is newer than the page's cursor, and wins.
        StreamPosition first = StreamPosition.of(delivered.get(0));
        assertThat(events("/page-events/pc?cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8),
                first.epoch() + ":" + first.offset(), 1)).containsExactly("after-2");
    }

    /** The first {@code count} data lines of an SSE stream, past its "subscribed" event. */
    private List<String> events(String path, String lastEventId, int count) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(30));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> response = HttpClient.newHttpClient().send(request.build(),
                HttpResponse.BodyHandlers.ofLines());
        List<String> data = new CopyOnWriteArrayList<>();
        Stream<String> lines = response.body();
        try {
            // Bounded: a stream that never sends its events fails the test instead of hanging it.
            CompletableFuture.runAsync(() -> {
                Iterator<String> it = lines.iterator();
                while (data.size() < count && it.hasNext()) {
                    String line = it.next();
                    if (line.startsWith("data:")) {
                        String value = line.substring(5).trim();
                        if (!value.equals("{}")) { // the "subscribed" event
                            data.add(value);
                        }
                    }
                }
            }).get(30, TimeUnit.SECONDS);
        } finally {
            lines.close();
        }
        return data;
    }
}
