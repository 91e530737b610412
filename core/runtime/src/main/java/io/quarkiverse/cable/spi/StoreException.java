package io.quarkiverse.cable.spi;

/**
 * An adapter's store could not answer: the adapter wraps its own failure (a database adapter's {@code SQLException})
 * as the cause, so the SPI names no storage technology. Callers report the cause.
 */
public class StoreException extends Exception {

    public StoreException(Throwable cause) {
        super(cause.getMessage(), cause);
    }

    /** What to show of it: the adapter's own failure, class and message. */
    public String describe() {
        Throwable cause = getCause();
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
