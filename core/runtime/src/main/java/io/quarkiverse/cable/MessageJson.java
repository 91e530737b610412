package io.quarkiverse.cable;

import java.io.IOException;
import java.lang.reflect.Type;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;

/**
 * Decodes delivered payloads for {@link CableMessage#as}: the API's side of the one application {@code ObjectMapper}
 * (the engine encodes with the same bean). Here because a message is a plain record without a reference to the
 * engine, and the API stands on nothing of the implementation.
 */
final class MessageJson {

    private MessageJson() {
    }

    static <T> T decode(CableMessage message, Type type) {
        ObjectMapper mapper = mapper();
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

    /**
     * The application's mapper, looked up per call (Arc caches the singleton's resolution, so it is a map read; a
     * cached copy would outlive a dev-mode restart); a plain one outside a Quarkus application.
     */
    static ObjectMapper mapper() {
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
