package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableMessage;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

class FramesTest {

    private static final String IDENTIFIER = Json.encode("{\"channel\":\"ChatChannel\",\"room\":\"a\"}");

    private static CableMessage text(String payload) {
        return new CableMessage(1, "chat:a", payload.getBytes(StandardCharsets.UTF_8), false);
    }

    @Test
    void controlFramesAreTheExactJsonOfActionCable() {
        assertThat(Frames.WELCOME).isEqualTo("{\"type\":\"welcome\"}");
        assertThat(Frames.ping(1700000000)).isEqualTo("{\"type\":\"ping\",\"message\":1700000000}");
        assertThat(Frames.disconnect("unauthorized", false))
                .isEqualTo("{\"type\":\"disconnect\",\"reason\":\"unauthorized\",\"reconnect\":false}");
        assertThat(Frames.disconnect(null, true)).isEqualTo("{\"type\":\"disconnect\",\"reason\":null,\"reconnect\":true}");
        assertThat(Frames.confirm(IDENTIFIER))
                .isEqualTo("{\"identifier\":" + IDENTIFIER + ",\"type\":\"confirm_subscription\"}");
        assertThat(Frames.reject(IDENTIFIER))
                .isEqualTo("{\"identifier\":" + IDENTIFIER + ",\"type\":\"reject_subscription\"}");
    }

    @Test
    void aRejectionsReasonIsAnExtraFieldAndNoReasonIsRailsFrame() {
        assertThat(Frames.reject(IDENTIFIER, "room \"full\""))
                .isEqualTo("{\"identifier\":" + IDENTIFIER
                        + ",\"type\":\"reject_subscription\",\"reason\":\"room \\\"full\\\"\"}");
        assertThat(new JsonObject(Frames.reject(IDENTIFIER, "room \"full\"")).getString("reason")).isEqualTo("room \"full\"");
        assertThat(Frames.reject(IDENTIFIER, null)).isEqualTo(Frames.reject(IDENTIFIER));
    }

    @Test
    void everyFrameIsOneJsonObject() {
        for (String frame : new String[] { Frames.WELCOME, Frames.ping(1), Frames.disconnect("a\"b", true),
                Frames.confirm(IDENTIFIER), Frames.reject(IDENTIFIER), Frames.broadcast(IDENTIFIER, text("<p>\"</p>")) }) {
            assertThat(new JsonObject(frame)).isNotNull();
        }
    }

    @Test
    void aJsonPayloadGoesAsItIsAndAnyOtherTextAsAString() {
        assertThat(Frames.broadcast(IDENTIFIER, text("{\"text\":\"hi\"}")))
                .isEqualTo("{\"identifier\":" + IDENTIFIER + ",\"message\":{\"text\":\"hi\"}}");
        assertThat(Frames.broadcast(IDENTIFIER, text("42"))).endsWith(",\"message\":42}");
        assertThat(Frames.broadcast(IDENTIFIER, text("<turbo-stream action=\"remove\"></turbo-stream>")))
                .endsWith(",\"message\":" + Json.encode("<turbo-stream action=\"remove\"></turbo-stream>") + "}");
        // Two JSON values, or one with trailing garbage, are text: the frame must stay one JSON object.
        assertThat(Frames.broadcast(IDENTIFIER, text("{} {}"))).endsWith(",\"message\":\"{} {}\"}");
        assertThat(Frames.broadcast(IDENTIFIER, text("{\"a\":1"))).endsWith(",\"message\":\"{\\\"a\\\":1\"}");
        assertThat(Frames.broadcast(IDENTIFIER, text(""))).endsWith(",\"message\":\"\"}");
    }

    @Test
    void aBinaryPayloadGoesAsBase64() {
        CableMessage binary = new CableMessage(1, "chat:a", new byte[] { 0, (byte) 0xff, 7 }, true);
        assertThat(Frames.broadcast(IDENTIFIER, binary)).endsWith(",\"message\":\"AP8H\"}");
    }
}
