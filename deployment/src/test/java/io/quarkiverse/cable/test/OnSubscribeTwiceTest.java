package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkus.test.QuarkusUnitTest;

/** Two @OnSubscribe methods on one channel fail the build, naming both. */
class OnSubscribeTwiceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Twice.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@OnSubscribe is on both " + Twice.class.getName() + "#")
                    .contains("a channel has one @OnSubscribe method"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Twice")
    public static class Twice {
        @OnSubscribe
        void join(ChannelSubscription subscription) {
        }

        @OnSubscribe
        void enter(ChannelSubscription subscription) {
        }
    }
}
