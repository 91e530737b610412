package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkus.test.QuarkusUnitTest;

/** An @OnSubscribe method that returns something fails the build: a rejection is reject(reason) or a throw. */
class OnSubscribeReturnsTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Answering.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@OnSubscribe " + Answering.class.getName() + "#join must return void"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Answering")
    public static class Answering {
        @OnSubscribe
        boolean join(ChannelSubscription subscription) {
            return true;
        }
    }
}
