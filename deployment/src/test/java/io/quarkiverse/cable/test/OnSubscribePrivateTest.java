package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkus.test.QuarkusUnitTest;

/** A private @OnSubscribe method fails the build (its invoker could not call it). */
class OnSubscribePrivateTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Hidden.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@OnSubscribe " + Hidden.class.getName() + "#join must be neither static nor private"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Hidden")
    public static class Hidden {
        @OnSubscribe
        private void join(ChannelSubscription subscription) {
        }
    }
}
