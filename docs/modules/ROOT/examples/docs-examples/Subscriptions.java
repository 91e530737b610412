package io.quarkiverse.cable.examples;

// tag::subscribe-imports[]
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
// end::subscribe-imports[]

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;

/** The guide's subscription fragment, in a bean (SubscriptionsTest reads what its listener prints). */
@ApplicationScoped
public class Subscriptions {

    @Inject
    Cable cable;

    /** Subscribes, runs {@code meanwhile} while subscribed, unsubscribes; returns the closed subscription. */
    Subscription listen(Runnable meanwhile) {
        // tag::subscribe[]
        Subscription subscription = cable.subscribe("chat:42", (CableMessage message) -> {
            // Runs on a virtual thread, one message at a time, in channel order: blocking is fine here.
            System.out.printf("#%d on %s: %s%n", message.id(), message.channel(), message.text());
        });

        subscription.confirmed().thenRun(() -> System.out.println("from now on every broadcast is delivered"));
        // ...
        // end::subscribe[]
        meanwhile.run();
        // tag::subscribe[]
        subscription.close(); // unsubscribes; calling it twice is harmless
        // end::subscribe[]
        return subscription;
    }
}
