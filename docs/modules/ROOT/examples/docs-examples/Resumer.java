package io.quarkiverse.cable.examples;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;

/** The recovery page's resume from a stream position (ResumeTest: the missed messages, or the reload). */
@ApplicationScoped
public class Resumer {

    @Inject
    Cable cable;

    final List<String> rendered = new CopyOnWriteArrayList<>();
    final List<CableException.HistoryUnavailable.Reason> reloads = new CopyOnWriteArrayList<>();

    Subscription resume(CableMessage message) {
        // tag::resume[]
        StreamPosition last = StreamPosition.of(message);        // from a delivered CableMessage

        Subscription subscription = cable.subscribe("chat:42", last, missed -> render(missed));
        subscription.confirmed().whenComplete((ignored, failure) -> {
            if (failure instanceof CableException.HistoryUnavailable lost) {
                reloadEverything(lost.reason());                 // then subscribe afresh
            }
        });
        // end::resume[]
        return subscription;
    }

    /** What was rendered (a method: the test holds a client proxy, whose fields are not the bean's). */
    List<String> rendered() {
        return rendered;
    }

    List<CableException.HistoryUnavailable.Reason> reloads() {
        return reloads;
    }

    void render(CableMessage message) {
        rendered.add(message.text());
    }

    void reloadEverything(CableException.HistoryUnavailable.Reason reason) {
        reloads.add(reason);
    }
}
