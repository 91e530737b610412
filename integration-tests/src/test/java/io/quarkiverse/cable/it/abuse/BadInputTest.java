package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletionException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Bad arguments on every public entry point fail with {@link CableException.InvalidMessage} naming the problem (and
 * the limit's property), are counted, and store nothing. Complements SubscriptionBehaviourTest and
 * BroadcastResourceTest.
 */
@DatabaseIndependent
@QuarkusTest
public class BadInputTest {

    private static final String TOO_LONG = "c".repeat(1025);

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    CableStreams streams;

    @Test
    void binaryBroadcastsAreCheckedLikeText() {
        long committedBefore = engine.stats().committed();
        assertInvalid(() -> cable.broadcast("c", (byte[]) null).toCompletableFuture().join(),
                "payload must not be null");
        assertInvalid(() -> cable.broadcast("c", new byte[17 * 1024 * 1024 + 1]).toCompletableFuture().join(),
                "quarkus.cable.max-payload-size");
        assertInvalid(() -> cable.broadcast(TOO_LONG, new byte[1]).toCompletableFuture().join(),
                "1025 characters, over quarkus.cable.max-channel-length (1024)");
        assertInvalid(() -> cable.broadcast("", "x").toCompletableFuture().join(), "must not be null or empty");
        assertThat(engine.stats().committed()).isEqualTo(committedBefore);
    }

    /** Checked before queueing, so no writer batch ever holds a channel name a database refuses or alters. */
    @Test
    void broadcastsRefuseChannelsThatCannotBeStored() {
        long committedBefore = engine.stats().committed();
        assertInvalid(() -> cable.broadcast("chat:\u0000", "x").toCompletableFuture().join(), "NUL character at index 5");
        assertInvalid(() -> cable.broadcast("chat:\uD800", "x").toCompletableFuture().join(), "lone UTF-16 surrogate");
        assertInvalid(() -> cable.broadcast("chat:\uDC00x", "x").toCompletableFuture().join(), "lone UTF-16 surrogate");
        assertThat(engine.stats().committed()).isEqualTo(committedBefore);
        // A surrogate pair is ordinary text.
        cable.broadcast(Channels.unique("emoji-\uD83D\uDE00"), "x").toCompletableFuture().join();
    }

    @Test
    void subscriptionsRefuseBadChannels() {
        long invalidBefore = engine.stats().failures(Failure.INVALID);
        assertInvalid(() -> cable.subscribe(null, message -> {
        }), "must not be null or empty");
        assertInvalid(() -> cable.subscribe(TOO_LONG, message -> {
        }), "quarkus.cable.max-channel-length");
        // An empty name is refused like the rest, by every call that names a channel (issue 48: a Dev UI row looked
        // like a broadcast on an empty name; no call can store one).
        assertInvalid(() -> cable.subscribe("", message -> {
        }), "Cable channel name must not be null or empty");
        assertInvalid(() -> cable.subscribe("", java.util.Optional.empty(), message -> {
        }), "Cable channel name must not be null or empty");
        assertInvalid(() -> cable.position(""), "Cable channel name must not be null or empty");
        assertInvalid(() -> cable.broadcast(null, "x").toCompletableFuture().join(), "must not be null or empty");
        assertThat(engine.stats().failures(Failure.INVALID)).isGreaterThan(invalidBefore);
    }

    @Test
    void aChannelAtTheLimitIsAccepted() throws Exception {
        String channel = "c".repeat(1024);
        Collector collector = new Collector();
        try (var subscription = cable.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
            cable.broadcast(channel, "at the limit").toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(collector.awaitCount(1).texts()).containsExactly("at the limit");
        }
    }

    private static void assertInvalid(Runnable call, String message) {
        assertThatThrownBy(call::run)
                .satisfies(failure -> {
                    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                    assertThat(cause).isInstanceOf(CableException.InvalidMessage.class).hasMessageContaining(message);
                });
    }
}
