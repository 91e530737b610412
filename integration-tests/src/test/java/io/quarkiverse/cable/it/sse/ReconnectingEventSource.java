package io.quarkiverse.cable.it.sse;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a browser's {@code EventSource} does, in the test's JVM: it reads one SSE URL, and whenever a response ends it
 * asks again at once with the last id it saw as {@code Last-Event-ID} (a browser waits its reconnection time, 3 to 5 s,
 * first). Only a refusal (a status other than 200) or {@link #close()} stops it. Comment lines (heartbeats) are
 * skipped; {@link #events} are the dispatched events in the order they came, across every response.
 */
public final class ReconnectingEventSource implements AutoCloseable {

    /** One dispatched event: its name ({@code message} when it had none), the last id then, and its data. */
    record Event(String name, String lastEventId, String data) {
    }

    final List<Event> events = new CopyOnWriteArrayList<>();
    /** Responses with status 200 so far: one more than the times the stream ended and was resumed. */
    final AtomicInteger opens = new AtomicInteger();
    /** The {@code Last-Event-ID} each response was asked with (null for the first). */
    final List<String> askedWith = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI url;
    private volatile boolean closed;
    private volatile String lastEventId;

    ReconnectingEventSource(URI url) {
        this.url = url;
        Thread.ofVirtual().name("reconnecting-event-source").start(this::run);
    }

    private void run() {
        while (!closed) {
            HttpRequest.Builder request = HttpRequest.newBuilder(url).header("Accept", "text/event-stream");
            String resumeFrom = lastEventId;
            if (resumeFrom != null) {
                request.header("Last-Event-ID", resumeFrom);
            }
            try {
                HttpResponse<InputStream> response = http.send(request.build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                if (response.statusCode() != 200) {
                    return;
                }
                askedWith.add(String.valueOf(resumeFrom));
                opens.incrementAndGet();
                try (BufferedReader lines = new BufferedReader(
                        new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                    read(lines);
                }
            } catch (Exception ended) {
                if (closed) {
                    return;
                }
                // A dropped connection is a reconnect too, as for EventSource.
            }
        }
    }

    /** The event stream interpretation of the HTML standard, for the fields the cable writes. */
    private void read(BufferedReader lines) throws Exception {
        String name = "";
        StringBuilder data = null;
        // The id becomes the stream's last id when its event is dispatched, not when its line is read.
        String idBuffer = lastEventId;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.isEmpty()) {
                lastEventId = idBuffer;
                if (data != null) {
                    events.add(new Event(name.isEmpty() ? "message" : name, lastEventId, data.toString()));
                }
                name = "";
                data = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "event" -> name = value;
                case "id" -> idBuffer = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> {
                    // retry and unknown fields: nothing the test looks at
                }
            }
        }
    }

    /** The data of the events named {@code name}, in order. */
    List<String> data(String name) {
        return events.stream().filter(e -> e.name().equals(name)).map(Event::data).toList();
    }

    @Override
    public void close() {
        closed = true;
        http.shutdownNow(); // the connection goes at once, as when a tab closes
    }
}
