package io.quarkiverse.cable.runtime.frontend;

import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Which pages may open cable WebSockets: the `Origin` check on the Action Cable endpoint and on every WebSockets
 * Next endpoint that streams cable channels (Rails' `allowed_request_origins`). Read by the front ends' shared origin
 * check alone.
 */
@ConfigMapping(prefix = "quarkus.cable.origin")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableOriginConfig {
    /**
     * Whether the `Origin` of handshakes is checked. `false` lets every page connect (Rails'
     * `disable_request_forgery_protection`): only for applications whose cable authenticates by something a
     * foreign page cannot send, such as a token in the URL, never by cookies.
     */
    @WithDefault("true")
    boolean check();

    /**
     * Whether a page served from the request's own scheme, host and port (its `Host` header) may connect (Rails'
     * `allow_same_origin_as_host`).
     */
    @WithDefault("true")
    boolean allowSameOrigin();

    /**
     * Further origins that may connect, as `scheme://host[:port]`, for example `https://app.example.com`;
     * `https://*.example.com` allows every subdomain of `example.com`. Default ports may be left out.
     */
    Optional<List<String>> allowed();

    /**
     * Whether a handshake without an `Origin` header is accepted. Browsers always send one, so a handshake without
     * it is not a page of another site but a server, a script or a test; set `false` to refuse those as well.
     */
    @WithDefault("true")
    boolean allowMissing();
}
