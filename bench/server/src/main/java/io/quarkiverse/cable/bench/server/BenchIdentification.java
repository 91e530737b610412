package io.quarkiverse.cable.bench.server;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;

/** Every connection is accepted and named by a fresh UUID, which gives each one its own ping stream. */
@Singleton
public class BenchIdentification implements CableIdentification {

    static final String ID = "id";

    @Override
    public Map<String, String> identify(CableRequest request) {
        return Map.of(ID, UUID.randomUUID().toString());
    }
}
