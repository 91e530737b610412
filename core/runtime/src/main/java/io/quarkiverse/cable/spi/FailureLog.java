package io.quarkiverse.cable.spi;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

/**
 * Counts every failure and logs it, at most once per second per kind and cause with the number suppressed since, so
 * a storm of identical failures (a full queue, a database that is down, one client's junk) cannot flood the log, nor
 * hide a failure of another cause: the rate limit is per key, a kind and its cause. The cause is the one the caller
 * names (a constant of the code, never a client's string); when it names none, the class of the throwable (a
 * failure's type is a cause too: a broken connection must not hide a bug's NullPointerException); with neither, the
 * kind alone. The keys are bounded ({@value #MAX_KEYS}): past that, a new cause shares its kind's overflow key, so
 * nothing, not even a flood of distinct exception classes, grows the map without bound. Every logged text is
 * {@linkplain #safe made safe}: control characters escaped (a client cannot forge a log line with CR/LF) and the
 * length bounded.
 */
public final class FailureLog {

    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The longest text logged for one failure. */
    static final int MAX_LOGGED = 2000;
    /**
     * The most keys (kind and cause) rate-limited apart. The code names a few dozen causes; the rest of the room is
     * for exception classes. Past it, new causes of a kind share one overflow key per kind.
     */
    static final int MAX_KEYS = 256;
    /** The cause of the overflow key of each kind. */
    static final String OTHER_CAUSES = "other causes";

    private final Logger log;
    private final TransportCounters stats;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    private static final class Window {
        final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);
        final AtomicLong suppressed = new AtomicLong();
    }

    /** How many keys are rate-limited apart now (tests). */
    int keys() {
        return windows.size();
    }

    public FailureLog(Logger log, TransportCounters stats) {
        this.log = log;
        this.stats = stats;
    }

    public void record(Failure kind, String message, Throwable cause) {
        record(kind, null, message, cause);
    }

    /**
     * Counts a failure of {@code kind} and logs it unless one of the same kind and cause was logged less than a second
     * ago. The cause is {@code key} (a constant of the code), or when null the class of {@code cause}. Failures a
     * client can cause pass no throwable: their message says what happened, without a stack trace.
     */
    public void record(Failure kind, String key, String message, Throwable cause) {
        stats.failed(kind);
        String named = key != null ? key : cause != null ? cause.getClass().getName() : null;
        String id = named == null ? kind.name() : kind.name() + '/' + named;
        Window window = windows.get(id);
        if (window == null) {
            // The check and the insert race, so the map may pass MAX_KEYS by a few concurrent callers: still bounded.
            if (windows.size() >= MAX_KEYS) {
                named = OTHER_CAUSES;
                id = kind.name() + '/' + OTHER_CAUSES;
            }
            window = windows.computeIfAbsent(id, ignored -> new Window());
        }
        long now = System.nanoTime();
        long previous = window.lastLogged.get();
        if (now - previous < INTERVAL_NANOS || !window.lastLogged.compareAndSet(previous, now)) {
            window.suppressed.incrementAndGet();
            return;
        }
        long skipped = window.suppressed.getAndSet(0);
        String text = safe(message);
        if (skipped > 0) {
            // Says which key the suppressed ones had: the same kind and cause, not merely something similar.
            text += " (" + skipped + " more " + kind.name().toLowerCase(Locale.ROOT)
                    + (named == null ? "" : " (" + safe(named) + ")") + " failures not logged in between)";
        }
        if (cause == null) {
            log.warn(text);
        } else {
            log.warn(text, cause);
        }
    }

    /**
     * {@code text} fit for one log line: control characters (CR, LF, and the rest below U+0020, DEL, the C1 controls
     * U+0080 to U+009F with NEL, the Unicode line and paragraph separators) and the bidirectional controls (LRM, RLM,
     * ALM, the embeddings, overrides and isolates U+202A to U+202E and U+2066 to U+2069) written as {@code \\uXXXX}
     * escapes, and cut to {@value #MAX_LOGGED} characters. A line break of any kind would let a client forge a log
     * line; a bidirectional override would let it show one line's text in another order in a terminal or a viewer.
     */
    public static String safe(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder safe = null;
        int end = Math.min(text.length(), MAX_LOGGED);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            boolean control = unsafe(c);
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

    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || c == '\u061c'
                || c == '\u200e' || c == '\u200f' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
