package io.quarkiverse.cable.jwt;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.ext.web.Router;

/**
 * An endpoint of the application's own, a plain Vert.x route: the tests' configuration protects it (with every other
 * path) by Quarkus Security's {@code authenticated} policy, so only a valid JWT reaches it.
 */
@ApplicationScoped
public class SecuredRoute {

    void route(@Observes Router router) {
        router.get("/secured").handler(context -> context.response().end("secured"));
    }
}
