package io.quarkiverse.cable.bench.loadgen;

/** A command line the program cannot act on; the message is shown with the usage text. */
final class UsageException extends Exception {

    UsageException(String message) {
        super(message);
    }
}
