package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.actioncable.ActionCableCommand.Ignored;
import io.quarkiverse.cable.runtime.actioncable.ActionCableCommand.Invalid;
import io.quarkiverse.cable.runtime.actioncable.ActionCableCommand.Valid;
import io.quarkiverse.cable.runtime.actioncable.ActionCableCommand.Verb;
import io.vertx.core.json.JsonObject;

class ActionCableCommandTest {

    private static final String ID = "{\\\"channel\\\":\\\"ChatChannel\\\"}";

    @Test
    void theThreeCommandsAreRead() {
        assertThat(ActionCableCommand.parse("{\"command\":\"subscribe\",\"identifier\":\"" + ID + "\"}"))
                .isEqualTo(new Valid(new ActionCableCommand(Verb.SUBSCRIBE, "{\"channel\":\"ChatChannel\"}", null)));
        assertThat(ActionCableCommand.parse("{\"command\":\"unsubscribe\",\"identifier\":\"" + ID + "\"}"))
                .isEqualTo(new Valid(new ActionCableCommand(Verb.UNSUBSCRIBE, "{\"channel\":\"ChatChannel\"}", null)));
        assertThat(ActionCableCommand.parse("{\"command\":\"message\",\"identifier\":\"" + ID
                + "\",\"data\":\"{\\\"action\\\":\\\"speak\\\"}\"}"))
                .isEqualTo(new Valid(new ActionCableCommand(Verb.MESSAGE, "{\"channel\":\"ChatChannel\"}",
                        "{\"action\":\"speak\"}")));
    }

    @Test
    void aPongIsAllowedAndAsksForNothing() {
        assertThat(ActionCableCommand.parse("{\"command\":\"pong\"}")).isInstanceOf(Ignored.class);
    }

    @Test
    void badInputSaysWhatIsWrong() {
        assertThat(problem("not json")).startsWith("sent a frame that is not a JSON object: not json");
        assertThat(problem("[1,2]")).startsWith("sent a frame that is not a JSON object");
        assertThat(problem("{\"command\":1}")).startsWith("sent a frame without a command");
        assertThat(problem("{\"identifier\":\"x\"}")).startsWith("sent a frame without a command");
        assertThat(problem("{\"command\":\"subscribe\",\"identifier\":{}}"))
                .isEqualTo("sent command 'subscribe' whose identifier is not a string");
        assertThat(problem("{\"command\":\"pong\",\"identifier\":\"x\"}")).isEqualTo("sent unknown command 'pong'");
        assertThat(problem("{\"command\":\"" + "z".repeat(500) + "\",\"identifier\":\"x\"}"))
                .hasSizeLessThan(150).contains("...");
    }

    @Test
    void messageDataIsAStringHoldingAJsonObject() {
        assertThat(ActionCableCommand.messageData("{\"action\":\"speak\",\"text\":\"hi\"}"))
                .isEqualTo(new JsonObject().put("action", "speak").put("text", "hi"));
        assertThat(ActionCableCommand.messageData(new JsonObject().put("action", "speak"))).isNull();
        assertThat(ActionCableCommand.messageData("[]")).isNull();
        assertThat(ActionCableCommand.messageData(null)).isNull();
    }

    @Test
    void theActionDefaultsToReceive() {
        assertThat(ActionCableCommand.action(new JsonObject())).isEqualTo("receive");
        assertThat(ActionCableCommand.action(new JsonObject().put("action", ""))).isEqualTo("receive");
        assertThat(ActionCableCommand.action(new JsonObject().put("action", "speak"))).isEqualTo("speak");
        assertThat(ActionCableCommand.action(new JsonObject().put("action", 3))).isNull();
    }

    @Test
    void identifiersAreJsonObjects() {
        assertThat(ActionCableCommand.params("{\"channel\":\"ChatChannel\"}"))
                .isEqualTo(new JsonObject().put("channel", "ChatChannel"));
        assertThat(ActionCableCommand.params("ChatChannel")).isNull();
    }

    private static String problem(String frame) {
        return ((Invalid) ActionCableCommand.parse(frame)).problem();
    }
}
