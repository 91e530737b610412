package io.quarkiverse.cable.runtime.core;

/**
 * One connection's share of history steps in flight ({@code quarkus.cable.history.max-replays-per-connection}), made
 * by {@link CableEngine#newReplayQuota} and handed back with each of the connection's recovering subscriptions. The
 * front end only holds it; the core counts the steps.
 */
public sealed interface ReplayQuota permits StepQuota {
}
