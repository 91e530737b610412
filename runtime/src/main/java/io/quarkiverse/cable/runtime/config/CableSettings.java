package io.quarkiverse.cable.runtime.config;

import java.time.Duration;

/**
 * The run-time configuration, validated and frozen at startup. Components receive this record and never read
 * configuration again.
 */
public record CableSettings(
        Duration pollingInterval,
        int pollBatchSize,
        long maxPayloadSize,
        int maxChannelLength,
        int subscriberBuffer,
        int writerBatchSize,
        Duration writerBatchDelay,
        int writerQueueCapacity,
        Duration writerRetryTimeout,
        boolean autotrim,
        int trimBatchSize,
        Duration messageRetention,
        boolean createSchema) {

    public CableSettings {
        positive("quarkus.cable.polling-interval", pollingInterval);
        atLeastOne("quarkus.cable.poll-batch-size", pollBatchSize);
        if (maxPayloadSize < 1) {
            throw invalid("quarkus.cable.max-payload-size", maxPayloadSize + " bytes", "must be at least 1 byte");
        }
        atLeastOne("quarkus.cable.max-channel-length", maxChannelLength);
        atLeastOne("quarkus.cable.subscriber-buffer", subscriberBuffer);
        atLeastOne("quarkus.cable.writer.batch-size", writerBatchSize);
        notNegative("quarkus.cable.writer.batch-delay", writerBatchDelay);
        atLeastOne("quarkus.cable.writer.queue-capacity", writerQueueCapacity);
        notNegative("quarkus.cable.writer.retry-timeout", writerRetryTimeout);
        atLeastOne("quarkus.cable.trim-batch-size", trimBatchSize);
        positive("quarkus.cable.message-retention", messageRetention);
    }

    public static CableSettings from(CableRuntimeConfig config) {
        return new CableSettings(
                config.pollingInterval(),
                config.pollBatchSize(),
                config.maxPayloadSize().asLongValue(),
                config.maxChannelLength(),
                config.subscriberBuffer(),
                config.writer().batchSize(),
                config.writer().batchDelay(),
                config.writer().queueCapacity(),
                config.writer().retryTimeout(),
                config.autotrim(),
                config.trimBatchSize(),
                config.messageRetention(),
                config.schema().create());
    }

    /** Defaults for components built outside a Quarkus application (benchmarks, tests of a second node). */
    public static CableSettings defaults() {
        return new CableSettings(Duration.ofMillis(100), 1000, 1024 * 1024, 1024, 10_000, 200, Duration.ZERO, 10_000,
                Duration.ofSeconds(10), true, 100, Duration.ofDays(1), true);
    }

    public CableSettings withWriterQueueCapacity(int capacity) {
        return new CableSettings(pollingInterval, pollBatchSize, maxPayloadSize, maxChannelLength, subscriberBuffer,
                writerBatchSize, writerBatchDelay, capacity, writerRetryTimeout, autotrim, trimBatchSize,
                messageRetention, createSchema);
    }

    public CableSettings withWriterRetryTimeout(Duration retryTimeout) {
        return new CableSettings(pollingInterval, pollBatchSize, maxPayloadSize, maxChannelLength, subscriberBuffer,
                writerBatchSize, writerBatchDelay, writerQueueCapacity, retryTimeout, autotrim, trimBatchSize,
                messageRetention, createSchema);
    }

    private static void positive(String property, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw invalid(property, value, "must be a positive duration");
        }
    }

    private static void notNegative(String property, Duration value) {
        if (value.isNegative()) {
            throw invalid(property, value, "must not be negative");
        }
    }

    private static void atLeastOne(String property, int value) {
        if (value < 1) {
            throw invalid(property, value, "must be at least 1");
        }
    }

    private static IllegalArgumentException invalid(String property, Object value, String rule) {
        return new IllegalArgumentException("Invalid configuration: " + property + " " + rule + ", was " + value);
    }
}
