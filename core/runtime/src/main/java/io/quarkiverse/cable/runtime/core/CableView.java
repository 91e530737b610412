package io.quarkiverse.cable.runtime.core;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;

/**
 * The engine's {@link Cable} with its broadcasts changed: {@link Cable#withoutTransaction()} (never joining the
 * caller's transaction) and {@link Cable#excluding(String)} (not delivered to one client session), alone or together.
 * Subscriptions and positions are the engine's.
 *
 * @param joinTransaction whether a broadcast joins the caller's transaction
 * @param excludedSession the client session broadcasts skip; null for none
 */
record CableView(CableEngine engine, boolean joinTransaction, String excludedSession) implements Cable {

    @Override
    public CompletionStage<Void> broadcast(String channel, String payload) {
        return engine.broadcast(channel, payload, joinTransaction, excludedSession);
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, byte[] payload) {
        return engine.broadcast(channel, payload, joinTransaction, excludedSession);
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, Object payload) {
        return engine.broadcast(channel, payload, joinTransaction, excludedSession);
    }

    @Override
    public Cable withoutTransaction() {
        return joinTransaction ? new CableView(engine, false, excludedSession) : this;
    }

    @Override
    public Cable excluding(String sessionId) {
        return sessionId == null ? this : new CableView(engine, joinTransaction, sessionId);
    }

    @Override
    public Subscription subscribe(String channel, CableListener listener) {
        return engine.subscribe(channel, listener);
    }

    @Override
    public Subscription subscribe(String channel, StreamPosition after, CableListener listener) {
        return engine.subscribe(channel, after, listener);
    }

    @Override
    public Subscription subscribe(String channel, Optional<StreamPosition> cursor, CableListener listener) {
        return engine.subscribe(channel, cursor, listener);
    }

    @Override
    public Optional<StreamPosition> position(String channel) {
        return engine.position(channel);
    }

    @Override
    public String adapter() {
        return engine.adapter();
    }
}
