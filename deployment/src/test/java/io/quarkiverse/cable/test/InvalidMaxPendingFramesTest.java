package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;

/** A negative frame limit cannot bound anything; it fails startup naming the property. */
class InvalidMaxPendingFramesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Room.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.websocket.max-pending-frames", "-5")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.websocket.max-pending-frames must be at least 1, was -5"));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }

    @WebSocket(path = "/room/{id}")
    @StreamFrom("room:{id}")
    public static class Room {
        @OnOpen
        String open() {
            return "open";
        }
    }
}
