package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;

/**
 * On a nested sub-endpoint, a template naming a parameter that neither its own path nor the enclosing one has still
 * fails the build, and the message lists the joined path's parameters.
 */
class StreamFromNestedUnknownParameterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Shop.class, Shop.Orders.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@StreamFrom(\"shop:{store}\") on " + Shop.Orders.class.getName())
                    .contains("{store}")
                    .contains("/shops/{shop}/orders/{kind}"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    @WebSocket(path = "/shops/{shop}")
    public static class Shop {

        @OnTextMessage
        String echo(String message) {
            return message;
        }

        @WebSocket(path = "/orders/{kind}")
        @StreamFrom("shop:{store}")
        public static class Orders {
            @OnTextMessage
            String echo(String message) {
                return message;
            }
        }
    }
}
