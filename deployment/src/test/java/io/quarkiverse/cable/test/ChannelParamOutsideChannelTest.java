package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.ChannelParam;
import io.quarkus.test.QuarkusUnitTest;

/** A @ChannelParam on a method the cable never calls fails the build instead of binding nothing. */
class ChannelParamOutsideChannelTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Stray.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@ChannelParam on " + Stray.class.getName() + "#join binds nothing"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    public static class Stray {
        void join(@ChannelParam("room") String room) {
        }
    }
}
