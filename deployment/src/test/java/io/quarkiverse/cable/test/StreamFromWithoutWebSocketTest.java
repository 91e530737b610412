package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.test.QuarkusUnitTest;

/** {@code @StreamFrom} on a class that is no WebSockets Next endpoint fails the build instead of streaming nothing. */
class StreamFromWithoutWebSocketTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(NotAnEndpoint.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@StreamFrom on " + NotAnEndpoint.class.getName())
                    .contains("annotate the class with @WebSocket"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @StreamFrom("room:lobby")
    public static class NotAnEndpoint {
    }
}
