package io.quarkiverse.cable.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.core.CableStats;

/** Failures are logged once per second per kind and cause, as one safe line each. */
class FailureLogTest {

    @Test
    void controlCharactersAreEscapedAndLongTextsCut() {
        assertThat(FailureLog.safe("a\r\nb\u2028c\u0000d")).isEqualTo("a\\u000d\\u000ab\\u2028c\\u0000d");
        assertThat(FailureLog.safe("plain")).isEqualTo("plain");
        String cut = FailureLog.safe("x".repeat(5000));
        assertThat(cut).startsWith("x".repeat(FailureLog.MAX_LOGGED)).endsWith("... (5000 characters)");
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
