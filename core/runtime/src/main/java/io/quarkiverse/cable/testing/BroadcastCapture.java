package io.quarkiverse.cable.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

import jakarta.enterprise.util.AnnotationLiteral;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
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
 * Captured messages carry id 0: ids are assigned by the store, not known to the broadcaster. To prove that nothing
 * was broadcast, {@link #assertNothingBroadcast()} waits for every broadcast made so far to settle (see
 * {@link #settle()}) instead of sleeping.
 *
 * @deprecated A test helper does not belong in the production jar: use {@code io.quarkiverse.cable.test.BroadcastCapture}
 *             of the test kit ({@code io.quarkiverse.cable:quarkus-cable-test}, scope {@code test}), the same API
 *             under another package, next to the Action Cable test client. This copy stays, unchanged, so that
 *             existing tests compile, and goes in a later release. (It cannot delegate to the kit's class: the runtime
 *             does not depend on the test kit.)
 */
@Deprecated(forRemoval = true)
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

    /**
     * A fence: waits until every broadcast made while this capture was open, up to this call, has settled (succeeded
     * and been captured, failed, or its transaction rolled back), at most {@link #DEFAULT_TIMEOUT}, and returns what
     * was captured. Exact, not a sleep: it counts the broadcasts the cable accepted, so when it returns nothing made
     * before it is still on its way. A broadcast inside a transaction settles when that transaction ends, so call it
     * after the transaction (the REST call, the {@code @Transactional} method) returned. Broadcasts made after the
     * call (a job the request started in the background) are not waited for.
     *
     * @throws AssertionError when some broadcast had not settled in time
     */
    public List<CableMessage> settle() {
        return settle(DEFAULT_TIMEOUT);
    }

    /** {@link #settle()} with its own timeout. */
    public List<CableMessage> settle(Duration timeout) {
        boolean settled;
        try {
            settled = engine.taps().fence(timeout.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for broadcasts to settle", e);
        }
        if (!settled) {
            throw new AssertionError("Broadcasts still unsettled after " + timeout + " (" + engine.taps().unsettled()
                    + " in flight: queued, or in a transaction not yet ended); captured so far: " + describe());
        }
        return messages();
    }

    /**
     * Asserts that nothing was broadcast on the matching channels: {@link #settle()}, then fails when anything was
     * captured.
     *
     * @throws AssertionError listing what was captured
     */
    public void assertNothingBroadcast() {
        List<CableMessage> sent = settle();
        if (!sent.isEmpty()) {
            throw new AssertionError("Expected no broadcasts, captured " + sent.size() + ": " + describe());
        }
    }

    private List<String> describe() {
        return messages().stream().map(m -> m.channel() + "=" + m.text()).toList();
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
