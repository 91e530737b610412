package io.quarkiverse.cable.it.identity;

import java.util.concurrent.LinkedBlockingQueue;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentityEvent;

/** Every CableIdentityEvent this node fires, in order (IdentityEventsTest). */
@Singleton
public class IdentityEventLog {

    final LinkedBlockingQueue<CableIdentityEvent> events = new LinkedBlockingQueue<>();

    void on(@Observes CableIdentityEvent event) {
        events.add(event);
    }
}
