package io.quarkiverse.cable.runtime.core;

import java.util.Optional;
import java.util.function.Supplier;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.MutinyCable;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import io.smallrye.mutiny.subscription.BackPressureStrategy;

/** {@link MutinyCable} over one {@link Cable} (the bean's, or its {@link Cable#withoutTransaction()} view). */
final class MutinyCableView implements MutinyCable {

    private final Cable cable;

    MutinyCableView(Cable cable) {
        this.cable = cable;
    }

    @Override
    public Uni<Void> broadcast(String channel, String payload) {
        return Uni.createFrom().completionStage(() -> cable.broadcast(channel, payload));
    }

    @Override
    public Uni<Void> broadcast(String channel, byte[] payload) {
        return Uni.createFrom().completionStage(() -> cable.broadcast(channel, payload));
    }

    @Override
    public Uni<Void> broadcast(String channel, Object payload) {
        return Uni.createFrom().completionStage(() -> cable.broadcast(channel, payload));
    }

    @Override
    public MutinyCable withoutTransaction() {
        return new MutinyCableView(cable.withoutTransaction());
    }

    @Override
    public MutinyCable excluding(String sessionId) {
        return sessionId == null ? this : new MutinyCableView(cable.excluding(sessionId));
    }

    @Override
    public Uni<Subscription> subscribe(String channel, CableListener listener) {
        return confirmed(() -> cable.subscribe(channel, listener));
    }

    @Override
    public Uni<Subscription> subscribe(String channel, StreamPosition after, CableListener listener) {
        return confirmed(() -> cable.subscribe(channel, after, listener));
    }

    @Override
    public Uni<Subscription> subscribe(String channel, Optional<StreamPosition> cursor, CableListener listener) {
        return confirmed(() -> cable.subscribe(channel, cursor, listener));
    }

    /** Subscribes when the {@code Uni} is subscribed, emits once confirmed; cancelling before that unsubscribes. */
    private static Uni<Subscription> confirmed(Supplier<Subscription> subscribe) {
        return Uni.createFrom().deferred(() -> {
            Subscription subscription = subscribe.get();
            return Uni.createFrom().completionStage(subscription.confirmed()).replaceWith(subscription)
                    .onCancellation().invoke(subscription::close);
        });
    }

    @Override
    public Uni<Optional<StreamPosition>> position(String channel) {
        // A blocking SELECT: never on the event loop that may subscribe a reactive endpoint's Uni.
        return Uni.createFrom().item(() -> cable.position(channel))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    @Override
    public Multi<CableMessage> messages(String channel, int bufferSize) {
        if (bufferSize < 1) {
            throw new IllegalArgumentException("bufferSize must be at least 1, was " + bufferSize);
        }
        // The listener never blocks: it hands each message to a bounded buffer that serves the subscriber's demand.
        return Multi.createFrom().<CableMessage> emitter(emitter -> {
            Subscription subscription = cable.subscribe(channel, emitter::emit);
            emitter.onTermination(subscription::close);
            subscription.closed().whenComplete((ignored, failure) -> {
                if (failure != null) {
                    emitter.fail(failure);
                } else {
                    emitter.complete();
                }
            });
        }, BackPressureStrategy.ERROR)
                .onOverflow().buffer(bufferSize)
                .onFailure(BackPressureFailure.class)
                .transform(failure -> new CableException.SlowConsumer(channel, bufferSize));
    }

    @Override
    public Cable cable() {
        return cable;
    }
}
