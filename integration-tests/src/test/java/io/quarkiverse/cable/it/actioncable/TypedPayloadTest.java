package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.type.TypeReference;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.MutinyCable;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.typed.CelsiusJson.Celsius;
import io.quarkiverse.cable.it.typed.CelsiusJson.Reading;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Typed payloads (issue 44 item 2) and the Mutiny forms (item 4): what is broadcast as an object is read back as one
 * through the application's {@code ObjectMapper} (its {@code Celsius} customization proves which mapper) in a
 * listener, a {@code StreamCallback}, a {@code Multi} and a {@code @CableAction} parameter; what does not decode is a
 * clear error that stops neither the subscription nor the connection.
 */
@QuarkusTest
@DatabaseIndependent
public class TypedPayloadTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Reading READING = new Reading("attic", new Celsius(21.5));
    private static final String READINGS = "{\"channel\":\"ReadingChannel\"}";

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    MutinyCable mutiny;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void listenerReceivesTheDecodedObjectAndAMessageDecodesToAnyType() throws Exception {
        String channel = Channels.unique("typed");
        List<Reading> readings = new CopyOnWriteArrayList<>();
        Collector raw = new Collector();
        Subscription typed = cable.subscribe(channel, CableListener.typed(Reading.class, readings::add));
        Subscription plain = cable.subscribe(channel, raw);
        try {
            typed.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            plain.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, READING).toCompletableFuture().get(60, TimeUnit.SECONDS);
            await().atMost(TIMEOUT).until(() -> readings.size() == 1);
            assertThat(readings).containsExactly(READING);

            CableMessage message = raw.awaitCount(1).messages.get(0);
            // Written by the application's mapper: the customized form, not {"degrees":21.5}.
            assertThat(message.text()).isEqualTo("{\"sensor\":\"attic\",\"temperature\":\"21.5C\"}");
            assertThat(message.as(Reading.class)).isEqualTo(READING);
            assertThat((Reading) message.as((java.lang.reflect.Type) Reading.class)).isEqualTo(READING);
            Map<String, Object> fields = message.as(new TypeReference<Map<String, Object>>() {
            });
            assertThat(fields).containsEntry("temperature", "21.5C");
        } finally {
            typed.close();
            plain.close();
        }
    }

    @Test
    void anUndecodablePayloadIsAClearErrorAndTheNextMessageStillArrives() throws Exception {
        String channel = Channels.unique("typed-bad");
        List<Reading> readings = new CopyOnWriteArrayList<>();
        Collector raw = new Collector();
        Subscription typed = cable.subscribe(channel, CableListener.typed(Reading.class, readings::add));
        Subscription plain = cable.subscribe(channel, raw);
        try {
            typed.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            plain.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            long listenerFailures = engine.stats().failures(Failure.LISTENER);
            cable.broadcast(channel, "not json").toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, READING).toCompletableFuture().get(60, TimeUnit.SECONDS);
            await().atMost(TIMEOUT).until(() -> readings.size() == 1);
            assertThat(readings).containsExactly(READING);
            assertThat(engine.stats().failures(Failure.LISTENER)).isGreaterThan(listenerFailures);

            CableMessage bad = raw.awaitCount(2).messages.get(0);
            assertThatThrownBy(() -> bad.as(Reading.class))
                    .isInstanceOf(CableException.InvalidMessage.class)
                    .hasMessageContaining("Message " + bad.id())
                    .hasMessageContaining("'" + channel + "'")
                    .hasMessageContaining(Reading.class.getName())
                    .hasMessageNotContaining("not json");
        } finally {
            typed.close();
            plain.close();
        }
    }

    @Test
    void typedStreamCallbackAndAStreamStartedWithItsUniDropped() throws Exception {
        String channel = Channels.unique("typed-feed");
        String other = Channels.unique("dropped-feed");
        try (WsClient client = WsClient.connect(vertx, base, "/feed")) {
            client.send("typed:" + channel);
            client.awaitFrame("started:" + channel);
            client.send("dropped:" + other);
            client.awaitFrame("started:" + other);
            cable.broadcast(channel, "not json").toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, READING).toCompletableFuture().get(60, TimeUnit.SECONDS);
            client.awaitFrame("attic=21.5");
            cable.broadcast(other, "still streamed").toCompletableFuture().get(60, TimeUnit.SECONDS);
            client.awaitFrame("still streamed");
            // The undecodable message sent nothing: the two answers, the reading, the other channel's message.
            assertThat(client.received).containsExactly("started:" + channel, "started:" + other, "attic=21.5",
                    "still streamed");
        }
    }

    @Test
    void mutinyDecodesMessagesSubscribesFromAPositionAndReadsIt() throws Exception {
        String channel = Channels.unique("typed-multi");
        AssertSubscriber<Reading> typed = mutiny.messages(channel, Reading.class)
                .subscribe().withSubscriber(AssertSubscriber.create(10));
        // The Multi subscribes on its own: a confirmed listener on the same channel fences its starting line.
        Collector first = new Collector();
        Subscription fence = mutiny.subscribe(channel, first).await().atMost(TIMEOUT);
        try {
            assertThat(mutiny.position(channel).await().atMost(TIMEOUT)).isEmpty();
            mutiny.broadcast(channel, READING).await().atMost(TIMEOUT);
            Reading second = new Reading("cellar", new Celsius(12.0));
            mutiny.broadcast(channel, second).await().atMost(TIMEOUT);
            first.awaitCount(2);
            Optional<StreamPosition> position = mutiny.position(channel).await().atMost(TIMEOUT);
            assertThat(position).contains(first.messages.get(1).streamPosition());

            // From the first message's position: the second one is replayed.
            Collector replayed = new Collector();
            Subscription resumed = mutiny.subscribe(channel, first.messages.get(0).streamPosition(), replayed)
                    .await().atMost(TIMEOUT);
            Collector fromStart = new Collector();
            Subscription fromCursor = mutiny.subscribe(channel, Optional.empty(), fromStart).await().atMost(TIMEOUT);
            try {
                assertThat(replayed.awaitCount(1).messages.get(0).as(Reading.class)).isEqualTo(second);
                assertThat(fromStart.awaitCount(2).messages).extracting(m -> m.as(Reading.class))
                        .containsExactly(READING, second);
            } finally {
                resumed.close();
                fromCursor.close();
            }
            await().atMost(TIMEOUT).until(() -> typed.getItems().size() >= 2 || typed.getFailure() != null);
            assertThat(typed.getItems()).containsExactly(READING, second);
        } finally {
            typed.cancel();
            fence.close();
        }
    }

    @Test
    void actionParameterIsBoundWithTheApplicationMapperAndBadDataIsRefused() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", ActionCableProtocolTest.V1)) {
            client.send(ActionCableProtocolTest.subscribe(READINGS));
            client.awaitFrame(ActionCableProtocolTest.confirm(READINGS));

            long invalidBefore = engine.stats().failures(Failure.INVALID);
            client.send(ActionCableProtocolTest.perform(READINGS,
                    new JsonObject().put("action", "record").put("sensor", "attic").put("temperature", 21.5)));
            await().atMost(TIMEOUT).until(() -> engine.stats().failures(Failure.INVALID) > invalidBefore);

            client.send(ActionCableProtocolTest.perform(READINGS,
                    new JsonObject().put("action", "record").put("sensor", "attic").put("temperature", "21.5C")));
            await().atMost(TIMEOUT).until(() -> client.received.stream().anyMatch(f -> f.contains("attic")));
            String answer = client.received.stream().filter(f -> f.contains("attic")).findFirst().orElseThrow();
            JsonObject message = new JsonObject(answer).getJsonObject("message");
            assertThat(message.getString("sensor")).isEqualTo("attic");
            assertThat(message.getDouble("degrees")).isEqualTo(21.5);
        }
    }
}
