package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.config.CableSettings;

/**
 * Every run-time value that would break the cable is refused at startup with a message naming the property, the
 * rule and the value (the startup path itself is covered by InvalidBatchSizeTest and its siblings).
 */
class CableSettingsValidationTest {

    private static final CableSettings OK = CableSettings.defaults();

    @Test
    void everyInvalidValueNamesItsProperty() {
        refused(s -> with(s, Duration.ZERO, null, null, null, null, null, null, null, null, null),
                "quarkus.cable.polling-interval must be a positive duration, was PT0S");
        refused(s -> with(s, null, 0, null, null, null, null, null, null, null, null),
                "quarkus.cable.poll-batch-size must be at least 1, was 0");
        refused(s -> with(s, null, null, 0L, null, null, null, null, null, null, null),
                "quarkus.cable.max-payload-size must be at least 1 byte, was 0 bytes");
        refused(s -> with(s, null, null, null, -1, null, null, null, null, null, null),
                "quarkus.cable.max-channel-length must be at least 1, was -1");
        refused(s -> with(s, null, null, null, null, 0, null, null, null, null, null),
                "quarkus.cable.subscriber-buffer must be at least 1, was 0");
        refused(s -> with(s, null, null, null, null, null, Duration.ofMillis(-1), null, null, null, null),
                "quarkus.cable.writer.batch-delay must not be negative, was PT-0.001S");
        refused(s -> with(s, null, null, null, null, null, null, 0, null, null, null),
                "quarkus.cable.writer.queue-capacity must be at least 1, was 0");
        refused(s -> with(s, null, null, null, null, null, null, null, Duration.ofSeconds(-1), null, null),
                "quarkus.cable.writer.retry-timeout must not be negative, was PT-1S");
        refused(s -> with(s, null, null, null, null, null, null, null, null, 0, null),
                "quarkus.cable.trim-batch-size must be at least 1, was 0");
        refused(s -> with(s, null, null, null, null, null, null, null, null, null, Duration.ofDays(-1)),
                "quarkus.cable.message-retention must be a positive duration, was PT-24H");
    }

    private static void refused(Function<CableSettings, CableSettings> change, String message) {
        assertThatThrownBy(() -> change.apply(OK)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: " + message);
    }

    /** A copy of {@code s} with the given values (null keeps the default). */
    private static CableSettings with(CableSettings s, Duration pollingInterval, Integer pollBatchSize,
            Long maxPayloadSize, Integer maxChannelLength, Integer subscriberBuffer, Duration batchDelay,
            Integer queueCapacity, Duration retryTimeout, Integer trimBatchSize, Duration retention) {
        return new CableSettings(
                pollingInterval != null ? pollingInterval : s.pollingInterval(),
                pollBatchSize != null ? pollBatchSize : s.pollBatchSize(),
                maxPayloadSize != null ? maxPayloadSize : s.maxPayloadSize(),
                maxChannelLength != null ? maxChannelLength : s.maxChannelLength(),
                subscriberBuffer != null ? subscriberBuffer : s.subscriberBuffer(),
                s.writerBatchSize(),
                batchDelay != null ? batchDelay : s.writerBatchDelay(),
                queueCapacity != null ? queueCapacity : s.writerQueueCapacity(),
                retryTimeout != null ? retryTimeout : s.writerRetryTimeout(),
                s.autotrim(),
                trimBatchSize != null ? trimBatchSize : s.trimBatchSize(),
                retention != null ? retention : s.messageRetention(),
                s.createSchema());
    }
}
