package io.quarkiverse.cable.runtime.wakeup;

/** When PostgreSQL's doorbell rings for a committed batch ({@code quarkus.cable.wakeup.ring}). */
public enum DoorbellRing {
    /**
     * A ringer thread sends {@code pg_notify} on a pooled connection right after the commit: the batch's transaction
     * is exactly what it is without the doorbell.
     */
    AFTER_COMMIT,
    /**
     * The batch's first statement queues the notification and PostgreSQL sends it with the commit: no transaction and
     * no thread hop of its own, but the commit also takes PostgreSQL's notification-queue lock.
     */
    IN_TRANSACTION
}
