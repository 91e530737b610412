package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkus.test.QuarkusUnitTest;

/** A channel class that does not implement ChannelHandler fails the build. */
class CableChannelWithoutHandlerTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(NotAHandler.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@CableChannel(\"Plain\") on " + NotAHandler.class.getName())
                    .contains("must implement io.quarkiverse.cable.ChannelHandler"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Plain")
    public static class NotAHandler {
    }
}
