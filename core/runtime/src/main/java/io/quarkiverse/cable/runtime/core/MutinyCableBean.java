package io.quarkiverse.cable.runtime.core;

import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.MutinyCable;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/** The {@link MutinyCable} bean, over the {@link Cable} bean. */
@Singleton
public class MutinyCableBean implements MutinyCable {

    private final MutinyCable delegate;

    @Inject
    MutinyCableBean(Cable cable) {
        this.delegate = new MutinyCableView(cable);
    }

    @Override
    public Uni<Void> broadcast(String channel, String payload) {
        return delegate.broadcast(channel, payload);
    }

    @Override
    public Uni<Void> broadcast(String channel, byte[] payload) {
        return delegate.broadcast(channel, payload);
    }

    @Override
    public Uni<Void> broadcast(String channel, Object payload) {
        return delegate.broadcast(channel, payload);
    }

    @Override
    public MutinyCable withoutTransaction() {
        return delegate.withoutTransaction();
    }

    @Override
    public MutinyCable excluding(String sessionId) {
        return delegate.excluding(sessionId);
    }

    @Override
    public Uni<Subscription> subscribe(String channel, CableListener listener) {
        return delegate.subscribe(channel, listener);
    }

    @Override
    public Uni<Subscription> subscribe(String channel, StreamPosition after, CableListener listener) {
        return delegate.subscribe(channel, after, listener);
    }

    @Override
    public Uni<Subscription> subscribe(String channel, Optional<StreamPosition> cursor, CableListener listener) {
        return delegate.subscribe(channel, cursor, listener);
    }

    @Override
    public Uni<Optional<StreamPosition>> position(String channel) {
        return delegate.position(channel);
    }

    @Override
    public Multi<CableMessage> messages(String channel, int bufferSize) {
        return delegate.messages(channel, bufferSize);
    }

    @Override
    public Cable cable() {
        return delegate.cable();
    }
}
