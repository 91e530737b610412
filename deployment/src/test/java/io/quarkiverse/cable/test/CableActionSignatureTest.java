package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkus.test.QuarkusUnitTest;

/** An action parameter the cable cannot bind fails the build, naming the method and the parameter. */
class CableActionSignatureTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(WrongAction.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@CableAction " + WrongAction.class.getName() + "#speak: parameter 1 'text' (java.lang.String)")
                    .contains("nor the action's data").contains("io.vertx.core.json.JsonObject or a record or POJO"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @CableChannel("WrongChannel")
    public static class WrongAction implements ChannelHandler {
        @CableAction
        void speak(String text) {
        }
    }
}
