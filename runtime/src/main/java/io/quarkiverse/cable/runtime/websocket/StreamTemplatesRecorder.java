package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Hands the {@code @StreamFrom} templates found at build time to the runtime. */
@Recorder
public class StreamTemplatesRecorder {

    public Supplier<StreamTemplates> templates(Map<String, List<String>> byEndpoint) {
        return () -> new StreamTemplates(byEndpoint);
    }
}
