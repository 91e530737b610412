package io.quarkiverse.cable.bench.server;

import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.Cable;

/** Broadcasts through Quarkus Cable on whatever adapter the flavour was built with. */
@Singleton
@Typed(CableRelay.class)
public class CableRelay implements Relay {

    private final RelayCounters counters = new RelayCounters();

    @Inject
    Cable cable;

    @Override
    public void publish(String stream, String jsonPayload) {
        // Not waiting for the commit: the writer batches concurrent broadcasts, and the extension already logs and
        // counts a failed one. Per-stream order holds without waiting.
        cable.broadcast(stream, jsonPayload).whenComplete((done, failure) -> {
            if (failure != null) {
                counters.failed();
            }
        });
        counters.published();
    }

    @Override
    public boolean ready() {
        return true;
    }

    @Override
    public RelayCounters counters() {
        return counters;
    }
}
