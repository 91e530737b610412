package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.todo.TodoResource;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A {@code @CableAction} taking a record (TodoChannel#add): called through its build-time invoker with the record
 * decoded from the action's JSON; data that does not decode is reported as bad input and the connection goes on.
 */
@DatabaseIndependent
@QuarkusTest
public class CableActionRecordTest {

    private static final String IDENTIFIER = "{\"channel\":\"TodoChannel\"}";

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void recordParameterIsDecodedAndUndecodableDataIsBadInput() throws Exception {
        String title = "from action " + System.nanoTime();
        try (BroadcastCapture capture = BroadcastCapture.channel(TodoResource.CHANNEL);
                WsClient client = WsClient.connect(vertx, base, "/cable", ActionCableProtocolTest.V1)) {
            client.send(ActionCableProtocolTest.subscribe(IDENTIFIER));
            client.awaitFrame(ActionCableProtocolTest.confirm(IDENTIFIER));

            long invalidBefore = engine.stats().failures(Failure.INVALID);
            client.send(ActionCableProtocolTest.perform(IDENTIFIER,
                    new JsonObject().put("action", "add").put("title", new JsonObject().put("not", "a string"))));
            await().atMost(Collector.TIMEOUT)
                    .until(() -> engine.stats().failures(Failure.INVALID) > invalidBefore);

            client.send(ActionCableProtocolTest.perform(IDENTIFIER,
                    new JsonObject().put("action", "add").put("title", title)));
            assertThat(capture.await(1)).hasSize(1);
            JsonObject event = new JsonObject(capture.messages().get(0).text());
            assertThat(event.getJsonObject("item").getString("title")).isEqualTo(title);
            // The subscriber itself receives the broadcast through its stream.
            await().atMost(Collector.TIMEOUT).until(() -> client.received.stream().anyMatch(f -> f.contains(title)));
            assertThat(capture.count()).isEqualTo(1);
        }
    }
}
