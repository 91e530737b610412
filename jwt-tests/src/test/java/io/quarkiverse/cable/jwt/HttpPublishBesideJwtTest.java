package io.quarkiverse.cable.jwt;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** {@link HttpPublishBesideJwt} with proactive authentication (Quarkus' default): every request is authenticated. */
class HttpPublishBesideJwtTest extends HttpPublishBesideJwt {

    @RegisterExtension
    static final QuarkusUnitTest app = app();
}
