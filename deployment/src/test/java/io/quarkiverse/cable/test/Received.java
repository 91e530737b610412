package io.quarkiverse.cable.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;

/** A listener that records payloads, for assertions with bounded waits. */
final class Received implements CableListener {

    final List<String> payloads = new CopyOnWriteArrayList<>();

    @Override
    public void onMessage(CableMessage message) {
        payloads.add(message.text());
    }

    void awaitCount(int count) {
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> payloads.size() >= count);
    }
}
