package io.quarkiverse.cable.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.core.CableStats;

/** Failures are logged once per second per kind and cause, as one safe line each. */
class FailureLogTest {

    /** The records a JUL logger of its own receives. */
    private static final class Capture {
        final String name = "cable-failure-log-test-" + System.nanoTime();
        final List<LogRecord> records = new CopyOnWriteArrayList<>();
        final java.util.logging.Logger jul = java.util.logging.Logger.getLogger(name);
        final Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };

        Capture() {
            jul.addHandler(handler);
        }

        Logger logger() {
            return Logger.getLogger(name);
        }

        void close() {
            jul.removeHandler(handler);
        }
    }

    @Test
    void controlCharactersAreEscapedAndLongTextsCut() {
        assertThat(FailureLog.safe("a\r\nb\u2028c\u0000d")).isEqualTo("a\\u000d\\u000ab\\u2028c\\u0000d");
        assertThat(FailureLog.safe("plain")).isEqualTo("plain");
        String cut = FailureLog.safe("x".repeat(5000));
        assertThat(cut).startsWith("x".repeat(FailureLog.MAX_LOGGED)).endsWith("... (5000 characters)");
    }

    /**
     * Failures that name no cause but carry different exceptions (the poller's SQLException and a bug's
     * NullPointerException, say) are different causes: each is logged. Before, both fell into their kind's one key
     * and the second was only folded into "N similar failures".
     */
    @Test
    void exceptionsOfDifferentClassesAreDifferentCauses() {
        Capture capture = new Capture();
        try {
            CableStats stats = new CableStats();
            FailureLog log = new FailureLog(capture.logger(), stats);
            log.record(Failure.LISTENER, "listener failed", new IllegalStateException("one"));
            log.record(Failure.LISTENER, "listener failed", new NullPointerException("two"));
            log.record(Failure.LISTENER, "listener failed", new IllegalStateException("three"));
            assertThat(capture.records).extracting(LogRecord::getThrown).extracting(Throwable::getMessage)
                    .containsExactly("one", "two");
            assertThat(stats.failures(Failure.LISTENER)).isEqualTo(3);
        } finally {
            capture.close();
        }
    }

    /**
     * The same kind and cause is logged once, then suppressed and counted; the next line logged for that key says
     * how many of that key (named) were not logged, while another cause of the kind was logged meanwhile.
     */
    @Test
    void theSameCauseIsSuppressedAndCountedPerKey() throws InterruptedException {
        Capture capture = new Capture();
        try {
            CableStats stats = new CableStats();
            FailureLog log = new FailureLog(capture.logger(), stats);
            log.record(Failure.WAKEUP, "probe", "probe failed 0", null);
            log.record(Failure.WAKEUP, "doorbell-listener", "listener failed", null);
            AtomicInteger calls = new AtomicInteger(1);
            // Repeats the failure until the one-second window has passed and it is logged again; the count in
            // that line is every call in between, whatever the machine's speed.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (capture.records.size() < 3) {
                assertThat(System.nanoTime()).as("the window's second has passed").isLessThan(deadline);
                log.record(Failure.WAKEUP, "probe", "probe failed " + calls.getAndIncrement(), null);
                Thread.sleep(5); // polls the clock, not a synchronization: the loop ends on the logged line
            }
            int suppressed = calls.get() - 2;
            assertThat(suppressed).isPositive();
            assertThat(capture.records).extracting(LogRecord::getMessage).containsExactly("probe failed 0",
                    "listener failed", "probe failed " + (calls.get() - 1) + " (" + suppressed
                            + " more wakeup (probe) failures not logged in between)");
            assertThat(stats.failures(Failure.WAKEUP)).isEqualTo(calls.get() + 1); // the other cause counted too
        } finally {
            capture.close();
        }
    }

    /** A flood of distinct causes cannot grow the limiter's map without bound: past the bound they share one key. */
    @Test
    void keysAreBounded() {
        Capture capture = new Capture();
        try {
            CableStats stats = new CableStats();
            FailureLog log = new FailureLog(capture.logger(), stats);
            int causes = FailureLog.MAX_KEYS * 10;
            for (int i = 0; i < causes; i++) {
                log.record(Failure.INVALID, "cause-" + i, "failure " + i, null);
            }
            assertThat(log.keys()).isLessThanOrEqualTo(FailureLog.MAX_KEYS + Failure.values().length);
            // The first MAX_KEYS causes each got their line, the overflow one more, the rest were suppressed.
            assertThat(capture.records).hasSize(FailureLog.MAX_KEYS + 1);
            assertThat(stats.failures(Failure.INVALID)).isEqualTo(causes);
        } finally {
            capture.close();
        }
    }

    @Test
    void oneCauseFloodingDoesNotHideAnother() {
        String name = "cable-failure-log-test-" + System.nanoTime();
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger(name);
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(handler);
        try {
            CableStats stats = new CableStats();
            FailureLog log = new FailureLog(Logger.getLogger(name), stats);
            for (int i = 0; i < 1000; i++) {
                log.record(Failure.INVALID, "command", "junk\nforged " + i, null);
            }
            log.record(Failure.INVALID, "subscribe", "unknown channel", null);
            log.record(Failure.INVALID, "subscribe", "unknown channel again", null);
            assertThat(records).extracting(LogRecord::getMessage)
                    .containsExactly("junk\\u000aforged 0", "unknown channel");
            assertThat(stats.failures(Failure.INVALID)).isEqualTo(1002);
        } finally {
            jul.removeHandler(handler);
        }
    }
}
