package io.quarkiverse.cable.runtime.actioncable;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Hands the channels found at build time to the runtime. */
@Recorder
public class ChannelRegistryRecorder {

    public Supplier<ChannelRegistry> registry(Map<String, String> classes, Map<String, List<String>> actions,
            boolean turboUsed) {
        return () -> new ChannelRegistry(classes, actions, turboUsed);
    }
}
