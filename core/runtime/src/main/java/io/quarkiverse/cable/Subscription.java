package io.quarkiverse.cable;

import java.util.concurrent.CompletionStage;

/**
 * A listener's subscription to one channel. {@link #close()} unsubscribes; it is idempotent.
 */
public interface Subscription extends AutoCloseable {

    String channel();

    /** Completes once the starting line is recorded; from then on every committed broadcast is delivered. */
    CompletionStage<Void> confirmed();

    /**
     * Completes when the subscription ends: normally after {@link #close()}, exceptionally with
     * {@link CableException.SlowConsumer} when the listener fell too far behind, or {@link CableException.Stopped} when
     * the cable stopped.
     */
    CompletionStage<Void> closed();

    @Override
    void close();
}
