package io.quarkiverse.cable.runtime.sse;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes a chunk of a replay as one write of the stream's HTTP response, in the text Quarkus REST writes for each
 * event ({@code id:}, {@code event:}, {@code data:} lines, a blank line), instead of one event, one formatting and one
 * write (a flush, a system call) per message. Used only between Quarkus REST's own writes: after its head is written
 * and while it waits for the stream's next event, so the bytes on the wire are those it would have written, in order.
 */
final class ReplayWriter {

    private final HttpServerResponse response;

    ReplayWriter(HttpServerResponse response) {
        this.response = response;
    }

    /** True when Quarkus REST wrote the response's head (so its status and headers are its own) and it is open. */
    boolean ready() {
        try {
            return response.headWritten() && !response.ended() && !response.closed();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Writes {@code text}; {@code written} runs once the bytes went to the socket, {@code failed} when they cannot. */
    void write(CharSequence text, Runnable written, Consumer<Throwable> failed) {
        try {
            response.write(Buffer.buffer(text.toString().getBytes(StandardCharsets.UTF_8))).onComplete(result -> {
                if (result.succeeded()) {
                    written.run();
                } else {
                    failed.accept(result.cause());
                }
            });
        } catch (RuntimeException e) {
            failed.accept(e);
        }
    }

    /** Appends {@code event} as Quarkus REST's {@code SseUtil} serialises it (no comment, no retry, no media type). */
    static void append(StringBuilder out, TextEvent event) {
        if (event.id() != null) {
            singleLine(out, "id", event.id());
        }
        if (event.name() != null) {
            singleLine(out, "event", event.name());
        }
        if (event.data() != null) {
            out.append("data:");
            String data = event.data();
            for (int i = 0; i < data.length(); i++) {
                char c = data.charAt(i);
                if (c == '\n') {
                    out.append("\ndata:");
                    if (i + 1 < data.length() && data.charAt(i + 1) == '\r') {
                        i++;
                    }
                } else if (c == '\r') {
                    out.append("\ndata:");
                } else {
                    out.append(c);
                }
            }
            out.append('\n');
        }
        out.append('\n');
    }

    /** A single-line field: cut at its first line break, as Quarkus REST does. */
    private static void singleLine(StringBuilder out, String field, String value) {
        out.append(field).append(':');
        int lf = value.indexOf('\n');
        int cr = value.indexOf('\r');
        if (lf < 0 && cr < 0) {
            out.append(value);
        } else {
            out.append(value, 0, Math.max(lf, cr));
        }
        out.append('\n');
    }
}
