package io.quarkiverse.cable.bench.server;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;

/**
 * Every connection is accepted and named by a fresh UUID, which gives each one its own ping stream; or by its
 * {@code ?id=} query parameter, so the cross-node steady load can open two connections, on two nodes, that share a
 * ping stream.
 */
@Singleton
public class BenchIdentification implements CableIdentification {

    static final String ID = "id";

    @Override
    public Map<String, String> identify(CableRequest request) {
        String id = request.queryParam(ID);
        return Map.of(ID, id == null || id.isBlank() ? UUID.randomUUID().toString() : id);
    }
}
