package io.quarkiverse.cable.spi;

import java.util.List;
import java.util.Optional;

/**
 * Wakes this node's poller soon after another node committed broadcasts, so cross-node delivery does not wait for
 * the polling interval. It only ever wakes the poller: nothing is delivered from it, and a lost wake-up costs at most
 * one polling interval, since polling stays the correctness path.
 */
public interface Wakeup {

    /** The mode in effect: {@code notify}, {@code probe} or {@code none}. */
    String mode();

    void start();

    /** A batch was just committed on this node (called on the writer thread; must never block). */
    default void committed() {
    }

    /**
     * The payload of the notification that every batch's own transaction queues, when the doorbell rings inside it
     * ({@code ring=in-transaction}); empty when the batch's transaction rings nothing.
     */
    default Optional<String> ringInTransaction() {
        return Optional.empty();
    }

    /** Stops the threads and closes the connection, waiting at most {@code timeoutMillis}. */
    void stop(long timeoutMillis);

    WakeupStats stats();

    /** Its background workers, for liveness; none when it runs no thread. */
    List<Worker> workers();

    /** Whether it can wake the poller now: the listener connection is up (always true for a probe or none). */
    default boolean connected() {
        return true;
    }

    Wakeup NONE = new Wakeup() {
        private final WakeupStats stats = new WakeupStats();

        @Override
        public String mode() {
            return "none";
        }

        @Override
        public void start() {
        }

        @Override
        public void stop(long timeoutMillis) {
        }

        @Override
        public WakeupStats stats() {
            return stats;
        }

        @Override
        public List<Worker> workers() {
            return List.of();
        }
    };
}
