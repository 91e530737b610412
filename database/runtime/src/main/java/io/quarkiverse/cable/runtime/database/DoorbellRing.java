package io.quarkiverse.cable.runtime.database;

/** When PostgreSQL's doorbell rings for a committed batch ({@code quarkus.cable.wakeup.ring}). */
public enum DoorbellRing {
    /**
     * The batch's first statement queues the notification and PostgreSQL sends it with the commit, only if it
     * commits: no transaction and no thread hop of its own, but the commit also takes PostgreSQL's notification-queue
     * lock.
     */
    IN_TRANSACTION,
    /**
     * A ringer thread sends {@code pg_notify} on a pooled connection right after the commit: the batch's transaction
     * is exactly what it is without the doorbell, at the cost of a transaction and a thread hop per ring.
     */
    AFTER_COMMIT
}
