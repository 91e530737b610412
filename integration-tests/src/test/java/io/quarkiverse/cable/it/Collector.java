package io.quarkiverse.cable.it;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;

/** Records what a subscription receives, for assertions after a bounded wait. */
public final class Collector implements CableListener {

    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    public final List<CableMessage> messages = new CopyOnWriteArrayList<>();

    @Override
    public void onMessage(CableMessage message) {
        messages.add(message);
    }

    public List<String> texts() {
        return messages.stream().map(CableMessage::text).toList();
    }

    public Collector awaitCount(int count) {
        await().atMost(TIMEOUT).until(() -> messages.size() >= count);
        return this;
    }
}
