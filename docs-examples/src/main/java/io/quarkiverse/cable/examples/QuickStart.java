package io.quarkiverse.cable.examples;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;

/** The README's first block: a broadcast, a subscription, its confirmation (QuickStartTest runs it). */
@ApplicationScoped
public class QuickStart {

    // tag::quick-start[]
    @Inject Cable cable;
    // end::quick-start[]

    final List<String> rendered = new CopyOnWriteArrayList<>();

    CompletionStage<Void> run() {
        // tag::quick-start[]

        cable.broadcast("chat:42", "{\"text\":\"hi\"}")          // CompletionStage<Void>: completes at commit
             .exceptionally(failure -> { /* CableException.QueueFull, StorageFailed, ... */ return null; });

        Subscription subscription = cable.subscribe("chat:42", message -> render(message.text()));
        CompletionStage<Void> live = subscription.confirmed();   // completes when the subscription is live: every broadcast
        live.thenRun(() -> System.out.println("live"));          // committed after that is delivered; nothing older ever is
        subscription.close();
        // end::quick-start[]
        return live;
    }

    void render(String text) {
        rendered.add(text);
    }
}
