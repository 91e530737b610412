package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/** What the client tests compare the responses with: the module as the quarkus-cable-client jar carries it. */
final class ClientModule {

    private ClientModule() {
    }

    static byte[] bytes() throws Exception {
        try (InputStream in = Thread.currentThread().getContextClassLoader()
                .getResourceAsStream("io/quarkiverse/cable/client/cable.js")) {
            assertThat(in).as("the quarkus-cable-client jar on the class path").isNotNull();
            return in.readAllBytes();
        }
    }

    /** The strong ETag the route sends: the module's SHA-256 in hex, quoted. */
    static String etag() throws Exception {
        return '"' + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes())) + '"';
    }
}
