package io.quarkiverse.cable.jwt;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * {@link HttpPublishBesideJwt} without proactive authentication: a request is authenticated when an authorization
 * policy or the application asks for its identity.
 */
class HttpPublishBesideLazyJwtTest extends HttpPublishBesideJwt {

    @RegisterExtension
    static final QuarkusUnitTest app = app().overrideConfigKey("quarkus.http.auth.proactive", "false");
}
