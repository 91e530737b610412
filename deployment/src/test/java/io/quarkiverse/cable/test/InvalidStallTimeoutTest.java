package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;

/** A zero stall timeout would close every connection that ever has a frame waiting; it fails startup naming it. */
class InvalidStallTimeoutTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Room.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideRuntimeConfigKey("quarkus.cable.websocket.stall-timeout", "0s")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.websocket.stall-timeout must be a positive duration, was PT0S"));

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
