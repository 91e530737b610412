package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An @OnSubscribe parameter that is neither the subscription, the identity nor a @ChannelParam fails the build, naming the
 * method and the parameter.
 */
class OnSubscribeUnknownParameterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Unbound.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@OnSubscribe " + Unbound.class.getName() + "#join: parameter 1 'room' (java.lang.String)")
                    .contains("annotate it @ChannelParam"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Unbound")
    public static class Unbound {
        @OnSubscribe
        void join(String room, ChannelSubscription subscription) {
        }
    }
}
