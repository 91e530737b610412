package io.quarkiverse.cable;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Receives the messages of one {@link Subscription}, one at a time, in channel order, on a virtual thread.
 */
@FunctionalInterface
public interface CableListener {

    void onMessage(CableMessage message);

    /**
     * A listener that receives each payload decoded to {@code type} ({@link CableMessage#as(Class)}), for every
     * {@code subscribe} form: {@code cable.subscribe("prices", CableListener.typed(Price.class, this::show))}. A
     * payload that does not decode is that message's listener failure (logged and counted as any exception a listener
     * throws); the next messages are still delivered.
     */
    static <T> CableListener typed(Class<T> type, Consumer<? super T> listener) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(listener, "listener");
        return message -> listener.accept(message.as(type));
    }
}
