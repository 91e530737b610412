package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;

/** A template naming a path parameter the endpoint does not have fails the build, naming the class. */
class StreamFromUnknownParameterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Misnamed.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@StreamFrom(\"room:{roomId}\") on " + Misnamed.class.getName())
                    .contains("{roomId}"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @WebSocket(path = "/rooms/{room}")
    @StreamFrom("room:{roomId}")
    public static class Misnamed {
        @OnTextMessage
        String echo(String message) {
            return message;
        }
    }
}
