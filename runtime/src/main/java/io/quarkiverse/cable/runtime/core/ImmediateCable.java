package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletionStage;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;

/** {@link Cable#withoutTransaction()}: broadcasts go to the writer at once, even inside a transaction. */
final class ImmediateCable implements Cable {

    private final CableEngine engine;

    ImmediateCable(CableEngine engine) {
        this.engine = engine;
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, String payload) {
        return engine.broadcast(channel, payload, false);
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, byte[] payload) {
        return engine.broadcast(channel, payload, false);
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, Object payload) {
        return engine.broadcast(channel, payload, false);
    }

    @Override
    public Cable withoutTransaction() {
        return this;
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
    public String adapter() {
        return engine.adapter();
    }
}
