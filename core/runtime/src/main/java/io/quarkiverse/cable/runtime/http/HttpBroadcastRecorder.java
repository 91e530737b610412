package io.quarkiverse.cable.runtime.http;

import java.util.function.Function;

import io.quarkiverse.cable.runtime.core.CableConfigCheck;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP publish route, registered by the deployment at the path read at runtime. The route always exists; while
 * the endpoint is disabled it passes every request on (a 404 unless the application serves that path itself).
 * <p>
 * The route runs just before Quarkus Security's authentication handler, because the endpoint authenticates its
 * requests itself, with a credential that is no identity of the application: AnyCable's publisher sends
 * {@code Authorization: Bearer <secret>}, which an application's bearer mechanism (SmallRye JWT, OIDC) would read as
 * a token and refuse with a 401 before the route ran: with proactive authentication on any path, without it on a
 * path an {@code authenticated} permission covers. Quarkus' own switches do not help: proactive authentication
 * authenticates every request that carries a credential, whatever its path's policy ({@code permit} included), and a
 * path-specific mechanism would have to be configured by the application.
 * The application's HTTP permissions therefore do not apply to this path while the endpoint is enabled; while it is
 * disabled, requests go on through them as to any path.
 */
@Recorder
public class HttpBroadcastRecorder {

    private final RuntimeValue<CableHttpBroadcastConfig> config;

    public HttpBroadcastRecorder(RuntimeValue<CableHttpBroadcastConfig> config) {
        this.config = config;
    }

    /**
     * Right before Quarkus Security's authentication, a filter of priority {@link SecurityHandlerPriorities#AUTHENTICATION}
     * (a filter's route order is its priority negated): after CORS and the other filters that run before it.
     */
    static final int ORDER = -SecurityHandlerPriorities.AUTHENTICATION - 1;

    public Function<Router, Route> route() {
        return router -> router.route(config.getValue().path()).order(ORDER);
    }

    public Handler<RoutingContext> handler() {
        validate(config.getValue());
        boolean enabled = config.getValue().enabled();
        return new Handler<>() {
            private volatile HttpBroadcasts broadcasts;

            @Override
            public void handle(RoutingContext context) {
                if (!enabled) {
                    context.next();
                    return;
                }
                HttpBroadcasts current = broadcasts;
                if (current == null) {
                    current = Arc.container().instance(HttpBroadcasts.class).get();
                    broadcasts = current;
                }
                current.handle(context);
            }
        };
    }

    /** A publish secret anyone can guess in a few thousand tries is no secret, throttled or not. */
    static final int MIN_HTTP_SECRET_BYTES = 16;

    /**
     * Fails startup on an enabled endpoint without a secret of at least {@link #MIN_HTTP_SECRET_BYTES} bytes, or with
     * a path, size or throttle that could not work; nothing to check while it is disabled.
     */
    static void validate(CableHttpBroadcastConfig http) {
        if (!http.enabled()) {
            return;
        }
        if (http.secret().isEmpty() || http.secret().get().isBlank()) {
            throw CableConfigCheck.invalid("quarkus.cable.http-broadcast.secret", "nothing",
                    "is required when quarkus.cable.http-broadcast.enabled=true (an unauthenticated publish endpoint"
                            + " would let anyone broadcast)");
        }
        int secretBytes = http.secret().get().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (secretBytes < MIN_HTTP_SECRET_BYTES) {
            // The length only: the message must never print the secret.
            throw CableConfigCheck.invalid("quarkus.cable.http-broadcast.secret", secretBytes + " bytes", "must be at least "
                    + MIN_HTTP_SECRET_BYTES + " bytes (a long random secret, e.g. openssl rand -base64 32)");
        }
        if (!http.path().startsWith("/")) {
            throw CableConfigCheck.invalid("quarkus.cable.http-broadcast.path", http.path(), "must start with /");
        }
        if (http.maxBodySize().asLongValue() < 1) {
            throw CableConfigCheck.invalid("quarkus.cable.http-broadcast.max-body-size",
                    http.maxBodySize().asLongValue() + " bytes",
                    "must be at least 1 byte");
        }
        CableConfigCheck.atLeastOne("quarkus.cable.http-broadcast.max-batch-length", http.maxBatchLength());
        CableConfigCheck.atLeastOne("quarkus.cable.http-broadcast.max-wrong-secrets", http.maxWrongSecrets());
        CableConfigCheck.positive("quarkus.cable.http-broadcast.wrong-secret-window", http.wrongSecretWindow());
    }
}
