package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Per-identity delivery and remote disconnect seen by the real npm clients (src/test/js/identities.test.js):
 * {@code @rails/actioncable} and {@code @anycable/core} in Node. Node is required: without it this test fails.
 */
@QuarkusTest
@DatabaseIndependent
public class IdentityClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void realClientsSeeRemoteDisconnects() throws Exception {
        NodeTests.assertPasses(base, "identities.test.js", 2);
    }
}
