package io.quarkiverse.cable.runtime.core;

import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The one place that turns payloads into JSON and back: broadcast objects, presence info and callback results are
 * encoded, and delivered messages ({@link CableMessage#as}) and action parameters decoded, with the application's
 * Jackson {@link ObjectMapper} (the CDI bean quarkus-jackson configures, so {@code quarkus.jackson.*} and customizers
 * apply). The engine's instance looks the mapper up once, on first use.
 */
public final class JsonPayloads {

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

    /**
     * Decodes {@code message}'s payload to {@code type} for {@link CableMessage#as}. A record is a value without a
     * reference to the engine, so the mapper is looked up here, in the container (Arc caches the resolution of the
     * singleton, so the lookup is a map read; the decoding dominates).
     *
     * @throws CableException.InvalidMessage when the payload is not JSON of that type
     */
    public static <T> T decode(CableMessage message, Type type) {
        ObjectMapper mapper = lookup();
        JavaType target = mapper.constructType(type);
        try {
            return mapper.readValue(message.payload(), target);
        } catch (IOException | IllegalArgumentException e) {
            // Names the message and the type, not the payload: it may be large or private.
            String reason = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
            throw new CableException.InvalidMessage("Message " + message.id() + " on channel '" + message.channel()
                    + "' does not decode to " + target.toCanonical() + ": " + reason);
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
