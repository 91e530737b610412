package io.quarkiverse.cable.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

import jakarta.enterprise.util.AnnotationLiteral;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.Internal;
import io.quarkus.arc.Arc;

/**
 * Records what the application broadcast, for assertions in a {@code @QuarkusTest}: every broadcast of the matching
 * channels made on this node is captured once it succeeded (for a broadcast inside a transaction: once that
 * transaction committed; a rolled-back one is never captured). Works on both adapters, so a test can run on the
 * {@code memory} adapter without a database; waiting is bounded and wakes on each capture, never a sleep.
 *
 * <pre>{@code
 * try (BroadcastCapture capture = BroadcastCapture.channel("todos")) {
 *     given().body("milk").post("/todos").then().statusCode(201);
 *     List<CableMessage> sent = capture.await(1);
 *     assertEquals("{\"title\":\"milk\"}", sent.get(0).text());
 * }
 * }</pre>
 *
 * Captured messages carry id 0: ids are assigned by the store, not known to the broadcaster.
 */
public final class BroadcastCapture implements AutoCloseable {

    /** How long {@link #await(int)} waits by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final CableEngine engine;
    private final Predicate<String> channels;
    private final List<CableMessage> captured = new ArrayList<>();
    private final Consumer<CableMessage> tap = this::offer;

    private BroadcastCapture(CableEngine engine, Predicate<String> channels) {
        this.engine = engine;
        this.channels = channels;
        engine.taps().add(tap);
    }

    /** Captures the broadcasts on exactly {@code channel}. */
    public static BroadcastCapture channel(String channel) {
        return matching(channel::equals);
    }

    /** Captures the broadcasts on channels starting with {@code prefix}. */
    public static BroadcastCapture channelsStartingWith(String prefix) {
        return matching(name -> name.startsWith(prefix));
    }

    /** Captures the broadcasts on every channel. */
    public static BroadcastCapture all() {
        return matching(name -> true);
    }

    public static BroadcastCapture matching(Predicate<String> channels) {
        return new BroadcastCapture(Arc.container().instance(CableEngine.class, new InternalLiteral()).get(), channels);
    }

    /** The qualifier of the extension's own engine bean. */
    @SuppressWarnings("all")
    private static final class InternalLiteral extends AnnotationLiteral<Internal> implements Internal {
    }

    private void offer(CableMessage message) {
        if (channels.test(message.channel())) {
            synchronized (captured) {
                captured.add(message);
                captured.notifyAll();
            }
        }
    }

    /** What was captured so far, in the order the broadcasts succeeded. */
    public List<CableMessage> messages() {
        synchronized (captured) {
            return List.copyOf(captured);
        }
    }

    /** The payloads captured so far, as text. */
    public List<String> texts() {
        return messages().stream().map(CableMessage::text).toList();
    }

    /** The payloads captured so far on {@code channel}, as text. */
    public List<String> texts(String channel) {
        return messages().stream().filter(message -> message.channel().equals(channel)).map(CableMessage::text)
                .toList();
    }

    public int count() {
        synchronized (captured) {
            return captured.size();
        }
    }

    /** Waits until at least {@code count} broadcasts were captured (at most {@link #DEFAULT_TIMEOUT}). */
    public List<CableMessage> await(int count) {
        return await(count, DEFAULT_TIMEOUT);
    }

    /**
     * Waits until at least {@code count} broadcasts were captured and returns them all.
     *
     * @throws AssertionError when fewer arrived within {@code timeout}, listing what did
     */
    public List<CableMessage> await(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (captured) {
            while (captured.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("Expected " + count + " broadcasts within " + timeout + ", captured "
                            + captured.size() + ": " + captured.stream().map(m -> m.channel() + "=" + m.text()).toList());
                }
                try {
                    captured.wait(Math.max(1, left / 1_000_000), 0);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("Interrupted while waiting for broadcasts", e);
                }
            }
            return List.copyOf(captured);
        }
    }

    /** Forgets what was captured (the capture goes on). */
    public void clear() {
        synchronized (captured) {
            captured.clear();
        }
    }

    /** Stops capturing. */
    @Override
    public void close() {
        engine.taps().remove(tap);
    }
}
