package io.quarkiverse.cable.it.typed;

import java.io.IOException;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * A customization only the application's {@code ObjectMapper} has: {@link Celsius} is written as the string
 * {@code "21.5C"}. A payload broadcast with it and decoded back proves both ends use that mapper (a plain one writes
 * {@code {"degrees":21.5}} and cannot read {@code "21.5C"}).
 */
@Singleton
public class CelsiusJson implements ObjectMapperCustomizer {

    public record Celsius(double degrees) {
    }

    /** A reading as broadcast and as an action's parameter. */
    public record Reading(String sensor, Celsius temperature) {
    }

    @Override
    public void customize(ObjectMapper mapper) {
        SimpleModule module = new SimpleModule("celsius");
        module.addSerializer(Celsius.class, new StdSerializer<>(Celsius.class) {
            @Override
            public void serialize(Celsius value, JsonGenerator generator, SerializerProvider provider)
                    throws IOException {
                generator.writeString(value.degrees() + "C");
            }
        });
        module.addDeserializer(Celsius.class, new StdDeserializer<>(Celsius.class) {
            @Override
            public Celsius deserialize(JsonParser parser, DeserializationContext context) throws IOException {
                String text = parser.getValueAsString();
                if (text == null || !text.endsWith("C")) {
                    return (Celsius) context.handleWeirdStringValue(Celsius.class, text, "not a Celsius reading");
                }
                return new Celsius(Double.parseDouble(text.substring(0, text.length() - 1)));
            }
        });
        mapper.registerModule(module);
    }
}
