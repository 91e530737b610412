package io.quarkiverse.cable.it.llm;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;

/** The demo's answer stream: {@code {"channel":"LlmAnswerChannel","answer":"<id>"}} streams {@code llm:<id>}. */
@CableChannel("LlmAnswerChannel")
public class LlmAnswerChannel implements ChannelHandler {

    @Override
    public void subscribed(ChannelSubscription subscription) {
        Object answer = subscription.params().getValue("answer");
        if (answer == null || !LlmDemoResource.validId(answer.toString())) {
            subscription.reject();
            return;
        }
        subscription.streamFrom(LlmDemoResource.channel(answer.toString()));
    }
}
