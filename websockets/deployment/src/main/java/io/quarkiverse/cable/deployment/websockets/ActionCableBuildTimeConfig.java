package io.quarkiverse.cable.deployment.websockets;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The Action Cable endpoint's build-time settings: its path is part of the build. */
@ConfigMapping(prefix = "quarkus.cable.action-cable")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface ActionCableBuildTimeConfig {

    /**
     * The path of the Action Cable endpoint (`actioncable-v1-json`), where `@rails/actioncable`, `@anycable/web`
     * and Turbo's `<turbo-cable-stream-source>` connect. Fixed at build time: the endpoint is a WebSockets Next
     * endpoint, whose path is part of the build. Under `quarkus.http.root-path` it is served below that path.
     */
    @WithDefault("/cable")
    String mountPath();
}
