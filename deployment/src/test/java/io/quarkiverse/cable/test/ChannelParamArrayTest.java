package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelParam;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkus.test.QuarkusUnitTest;

/** A @ChannelParam of a type Jackson is not given a class for (an array) fails the build, naming the parameter. */
class ChannelParamArrayTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Arrays.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@OnSubscribe " + Arrays.class.getName() + "#join: @ChannelParam(\"rooms\") has type")
                    .contains("cannot be decoded"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("Arrays")
    public static class Arrays {
        @OnSubscribe
        void join(@ChannelParam("rooms") String[] rooms) {
        }
    }
}
