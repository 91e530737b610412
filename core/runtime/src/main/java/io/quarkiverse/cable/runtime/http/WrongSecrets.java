package io.quarkiverse.cable.runtime.http;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The wrong publish secrets each remote address presented, counted in a fixed window that starts at its first wrong
 * one: past {@code limit} in a window the address is throttled (its requests are refused without their secret being
 * compared) until the window ends. A guesser gets {@code limit} tries per window, and a wrong secret costs the server
 * no more than a map entry.
 * <p>
 * The memory is bounded: at most {@code capacity} addresses are tracked, and a new one past that replaces the one
 * whose window ends first. That lets an address start a new window early only after {@code capacity} other addresses
 * presented wrong secrets, each of which had its own tries anyway; an address is keyed as
 * {@link io.quarkiverse.cable.runtime.frontend.ClientAddress#key} says (an IPv6 address with its /64 network, what one
 * host is usually given), so a single host cannot pass as many.
 */
final class WrongSecrets {

    /** The most addresses tracked at once: about 100 bytes each. */
    static final int MAX_ADDRESSES = 4096;

    private final int limit;
    private final long windowNanos;
    private final int capacity;
    /**
     * The open windows in the order they started (an address whose window ended is removed before it starts another),
     * so the first one is always the first to end.
     */
    private final LinkedHashMap<String, Window> windows = new LinkedHashMap<>();
    /** Whether a window is open, read without the lock: with no wrong secret lately, a request takes no lock. */
    private volatile boolean open;

    private static final class Window {
        final long start;
        int wrong;

        Window(long start) {
            this.start = start;
        }
    }

    WrongSecrets(int limit, Duration window, int capacity) {
        this.limit = limit;
        this.windowNanos = window.toNanos();
        this.capacity = capacity;
    }

    /** How long (nanoseconds) {@code address} is still throttled at {@code now} ({@link System#nanoTime()}); 0 if not. */
    long throttledFor(String address, long now) {
        if (!open) {
            return 0;
        }
        synchronized (this) {
            expire(now);
            Window window = windows.get(address);
            return window == null || window.wrong < limit ? 0 : window.start + windowNanos - now;
        }
    }

    /** Counts a wrong secret of {@code address} at {@code now}. */
    synchronized void wrong(String address, long now) {
        expire(now);
        Window window = windows.get(address);
        if (window == null) {
            if (windows.size() >= capacity) {
                Iterator<Window> first = windows.values().iterator();
                first.next();
                first.remove();
            }
            window = new Window(now);
            windows.put(address, window);
            open = true;
        }
        window.wrong++;
    }

    /** The addresses tracked now (tests). */
    synchronized int tracked() {
        return windows.size();
    }

    private void expire(long now) {
        Iterator<Window> oldest = windows.values().iterator();
        while (oldest.hasNext() && now - oldest.next().start >= windowNanos) {
            oldest.remove();
        }
        open = !windows.isEmpty();
    }
}
