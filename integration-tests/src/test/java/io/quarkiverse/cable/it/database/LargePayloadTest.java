package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkus.test.junit.QuarkusTest;

/** The payload column holds 16 MiB on every database: no 8 KB NOTIFY-style limit. */
@QuarkusTest
public class LargePayloadTest {

    @Inject
    Cable cable;

    @Test
    void sixteenMebibytesRoundTrip() throws Exception {
        byte[] payload = new byte[16 * 1024 * 1024];
        new Random(42).nextBytes(payload);
        String channel = Channels.unique("large");
        Collector collector = new Collector();
        try (Subscription subscription = cable.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            cable.broadcast(channel, payload).toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(1);
            assertThat(collector.messages.get(0).payload()).isEqualTo(payload);
        }
    }
}
