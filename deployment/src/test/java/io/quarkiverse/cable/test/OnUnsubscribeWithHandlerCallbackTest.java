package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnUnsubscribe;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A ChannelHandler that overrides unsubscribed and has an @OnUnsubscribe method fails the build: one of the two would be
 * ignored.
 */
class OnUnsubscribeWithHandlerCallbackTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Both.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@CableChannel(\"Both\") on " + Both.class.getName())
                    .contains(
                            "has @OnUnsubscribe " + Both.class.getName() + "#leave and overrides ChannelHandler.unsubscribed"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Both")
    public static class Both implements ChannelHandler {
        @Override
        public void unsubscribed(ChannelSubscription subscription) {
        }

        @OnUnsubscribe
        void leave(ChannelSubscription subscription) {
        }
    }
}
