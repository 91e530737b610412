package io.quarkiverse.cable.runtime.origin;

import java.util.Set;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Hands the endpoints found at build time to the runtime. */
@Recorder
public class OriginRecorder {

    public Supplier<OriginCheckedEndpoints> endpoints(Set<String> ids) {
        return () -> new OriginCheckedEndpoints(ids);
    }
}
