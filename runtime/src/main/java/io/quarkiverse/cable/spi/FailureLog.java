package io.quarkiverse.cable.spi;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

/**
 * Counts every failure and logs it, at most once per second per kind and cause with the number suppressed since, so
 * a storm of identical failures (a full queue, a database that is down, one client's junk) cannot flood the log, nor
 * hide a failure of another cause: the rate limit is per key, a kind and a cause the code names (never a client's
 * string, so the keys are a fixed, small set). Every logged text is {@linkplain #safe made safe}: control characters
 * escaped (a client cannot forge a log line with CR/LF) and the length bounded.
 */
public final class FailureLog {

    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The longest text logged for one failure. */
    static final int MAX_LOGGED = 2000;

    private final Logger log;
    private final TransportCounters stats;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    private static final class Window {
        final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);
        final AtomicLong suppressed = new AtomicLong();
    }

    public FailureLog(Logger log, TransportCounters stats) {
        this.log = log;
        this.stats = stats;
    }

    public void record(Failure kind, String message, Throwable cause) {
        record(kind, null, message, cause);
    }

    /**
     * Counts a failure of {@code kind} and logs it unless one of the same kind and {@code cause} (a constant of the
     * code, null for none) was logged less than a second ago. Failures a client can cause pass no throwable: their
     * message says what happened, without a stack trace.
     */
    public void record(Failure kind, String key, String message, Throwable cause) {
        stats.failed(kind);
        Window window = windows.computeIfAbsent(key == null ? kind.name() : kind.name() + '/' + key,
                ignored -> new Window());
        long now = System.nanoTime();
        long previous = window.lastLogged.get();
        if (now - previous < INTERVAL_NANOS || !window.lastLogged.compareAndSet(previous, now)) {
            window.suppressed.incrementAndGet();
            return;
        }
        long skipped = window.suppressed.getAndSet(0);
        String text = safe(message);
        if (skipped > 0) {
            text += " (" + skipped + " similar failures not logged)";
        }
        if (cause == null) {
            log.warn(text);
        } else {
            log.warn(text, cause);
        }
    }

    /**
     * {@code text} fit for one log line: control characters (CR, LF, and the rest below U+0020, DEL, the Unicode line
     * and paragraph separators) written as {@code \\uXXXX} escapes, and cut to {@value #MAX_LOGGED} characters.
     */
    public static String safe(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder safe = null;
        int end = Math.min(text.length(), MAX_LOGGED);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029';
            if (control && safe == null) {
                safe = new StringBuilder(end + 16).append(text, 0, i);
            }
            if (safe != null) {
                if (control) {
                    safe.append(String.format("\\u%04x", (int) c));
                } else {
                    safe.append(c);
                }
            }
        }
        String result = safe == null ? text.substring(0, end) : safe.toString();
        return text.length() > MAX_LOGGED ? result + "... (" + text.length() + " characters)" : result;
    }
}
