package io.quarkiverse.cable.runtime.core;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The engine's JSON: broadcast objects, presence info and callback results are encoded, and action parameters
 * decoded, with the application's Jackson {@link ObjectMapper} (the CDI bean quarkus-jackson configures, so
 * {@code quarkus.jackson.*} and customizers apply); delivered messages decode with the same bean
 * ({@code CableMessage.as}). The mapper is looked up once, on first use.
 */
final class JsonPayloads {

    private volatile ObjectMapper mapper;

    /** The UTF-8 JSON of {@code value}; Vert.x JSON values are written as they are. */
    byte[] encode(Object value) throws JsonProcessingException {
        if (value instanceof JsonObject object) {
            return object.toBuffer().getBytes();
        }
        if (value instanceof JsonArray array) {
            return array.toBuffer().getBytes();
        }
        return mapper().writeValueAsBytes(value);
    }

    /** {@link #encode} as text; an object Jackson cannot write is an {@link IllegalArgumentException}. */
    String encodeText(Object value) {
        try {
            return new String(encode(value), StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(value.getClass().getName() + " could not be written as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    ObjectMapper mapper() {
        ObjectMapper current = mapper;
        if (current == null) {
            current = lookup();
            mapper = current;
        }
        return current;
    }

    /** The application's mapper; a plain one outside a Quarkus application (benchmarks). */
    private static ObjectMapper lookup() {
        ArcContainer container = Arc.container();
        if (container != null) {
            InstanceHandle<ObjectMapper> handle = container.instance(ObjectMapper.class);
            if (handle.isAvailable()) {
                return handle.get();
            }
        }
        return new ObjectMapper().findAndRegisterModules();
    }
}
