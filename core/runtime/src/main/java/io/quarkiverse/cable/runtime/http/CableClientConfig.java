package io.quarkiverse.cable.runtime.http;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The browser client the extension serves: `@anycable/web`, bundled into one ES module at the extension's build,
 * so that a page can `import { createCable } from "/_cable/cable.js"` without npm or a bundler (see the Which client
 * page). Read by its route alone.
 */
@ConfigMapping(prefix = "quarkus.cable.client")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableClientConfig {
    /**
     * Whether the module is served at `path`. Off, requests there are passed on to the application's own routes
     * (a `404` unless the application serves that path itself).
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * The path the module is served at, under `quarkus.http.root-path`. It answers `GET` and `HEAD` with
     * `text/javascript`, a strong `ETag` (the module's SHA-256) and `Cache-Control: no-cache`, so a browser
     * revalidates with `If-None-Match` and gets `304` until the extension's version changes.
     */
    @WithDefault("/_cable/cable.js")
    String path();
}
