package io.quarkiverse.cable.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.GemBroadcaster;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The HTTP publish endpoint with the requests of AnyCable's HTTP broadcaster: single and batch bodies answered 201
 * once committed and delivered exactly, in order; refused without or with a wrong secret; bodies and batches over
 * their bounds and invalid ones refused with nothing of them broadcast (a marker broadcast after the refusal is the
 * first thing received); commands other than a well-formed disconnect refused.
 */
@QuarkusTest
@DatabaseIndependent
public class HttpBroadcastTest {

    @Inject
    Cable cable;

    @TestHTTPResource("/")
    URI base;

    private GemBroadcaster gem() {
        return new GemBroadcaster(base, GemBroadcaster.SECRET);
    }

    private Collector subscribe(String channel) throws Exception {
        Collector collector = new Collector();
        Subscription subscription = cable.subscribe(channel, collector);
        subscription.confirmed().toCompletableFuture().get();
        return collector;
    }

    @Test
    void singleBroadcastIsCommittedWhenAnswered() throws Exception {
        Collector received = subscribe("http:single");
        HttpResponse<String> response = gem().broadcast("http:single", "{\"text\":\"hi\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(received.awaitCount(1).texts()).containsExactly("{\"text\":\"hi\"}");
    }

    @Test
    void aBatchOfAThousandIsDeliveredExactlyAndInOrder() throws Exception {
        Collector received = subscribe("http:batch");
        List<String> data = IntStream.rangeClosed(1, 1000).mapToObj(i -> "{\"n\":" + i + "}").toList();
        HttpResponse<String> response = gem().batch("http:batch", data);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        received.awaitCount(1000);
        gem().broadcast("http:batch", "\"end\"");
        received.awaitCount(1001);
        assertThat(received.texts().subList(0, 1000)).containsExactlyElementsOf(data);
        assertThat(received.texts()).hasSize(1001);
    }

    @Test
    void dataThatIsNotAStringIsBroadcastAsItsJsonAndMetaIsIgnored() throws Exception {
        Collector received = subscribe("http:shapes");
        HttpResponse<String> response = gem().post("[{\"stream\":\"http:shapes\",\"data\":{\"a\":1}},"
                + "{\"stream\":\"http:shapes\",\"data\":\"plain\",\"meta\":{\"exclude_socket\":\"x\"}}]");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(received.awaitCount(2).texts()).containsExactly("{\"a\":1}", "plain");
    }

    @Test
    void refusedWithoutOrWithAWrongSecret() throws Exception {
        Collector received = subscribe("http:auth");
        String body = GemBroadcaster.item("http:auth", "\"nope\"");
        assertThat(new GemBroadcaster(base, null).post(body).statusCode()).isEqualTo(401);
        assertThat(new GemBroadcaster(base, "wrong").post(body).statusCode()).isEqualTo(403);
        HttpResponse<String> basic = HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("/_broadcast"))
                .header("Authorization", "Basic " + GemBroadcaster.SECRET)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(basic.statusCode()).isEqualTo(401);
        HttpResponse<String> get = HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("/_broadcast"))
                .header("Authorization", "Bearer " + GemBroadcaster.SECRET).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertMarkerFirst(received, "http:auth");
    }

    @Test
    void oversizedBodiesAndBatchesAreRefusedWhole() throws Exception {
        Collector received = subscribe("http:bounds");
        String big = "x".repeat(300 * 1024);
        HttpResponse<String> tooBig = gem().broadcast("http:bounds", "\"" + big + "\"");
        assertThat(tooBig.statusCode()).as(tooBig.body()).isEqualTo(413);
        List<String> tooMany = IntStream.rangeClosed(1, 1001).mapToObj(i -> "{\"n\":" + i + "}").toList();
        HttpResponse<String> tooLong = gem().batch("http:bounds", tooMany);
        assertThat(tooLong.statusCode()).isEqualTo(413);
        assertThat(tooLong.body()).contains("max-batch-length (1000)");
        assertMarkerFirst(received, "http:bounds");
    }

    @Test
    void invalidBodiesAreRefusedWithNothingBroadcast() throws Exception {
        Collector received = subscribe("http:invalid");
        assertThat(gem().post("not json").statusCode()).isEqualTo(400);
        assertThat(gem().post("\"a string\"").statusCode()).isEqualTo(400);
        assertThat(gem().post("{\"data\":\"x\"}").statusCode()).isEqualTo(400);
        assertThat(gem().post("{\"stream\":\"http:invalid\"}").statusCode()).isEqualTo(400);
        // A valid broadcast first, then a channel over quarkus.cable.max-channel-length: the whole batch is refused.
        HttpResponse<String> longChannel = gem().post("[" + GemBroadcaster.item("http:invalid", "\"first\"") + ","
                + GemBroadcaster.item("c".repeat(1025), "\"x\"") + "]");
        assertThat(longChannel.statusCode()).isEqualTo(400);
        assertThat(longChannel.body()).contains("max-channel-length");
        // A command the cable does not know, and a disconnect without an identity: refused, the batch with them.
        HttpResponse<String> unknownCommand = gem().post("[" + GemBroadcaster.item("http:invalid", "\"first\"")
                + ",{\"command\":\"reload\",\"payload\":{}}]");
        assertThat(unknownCommand.statusCode()).isEqualTo(422);
        assertThat(unknownCommand.body()).contains("only disconnect is");
        assertThat(gem().post("{\"command\":\"disconnect\",\"payload\":{\"identifier\":\"not json\"}}").statusCode())
                .isEqualTo(400);
        assertThat(gem().post("{\"command\":\"disconnect\",\"payload\":{\"reconnect\":true}}").statusCode())
                .isEqualTo(400);
        assertMarkerFirst(received, "http:invalid");
    }

    /** Nothing of the refused requests reached the channel: a marker sent after them is the first message. */
    private void assertMarkerFirst(Collector received, String channel) throws Exception {
        assertThat(gem().broadcast(channel, "\"marker\"").statusCode()).isEqualTo(201);
        assertThat(received.awaitCount(1).texts()).containsExactly("\"marker\"");
    }
}
