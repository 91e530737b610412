package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The demo's failure on request, for the API page's rollback test: a REST request with
 * {@code ?failAfterBroadcast=true} has its transaction marked rollback-only as it is about to commit, after
 * TodoResource's broadcast, so the resource answers 500 and neither the item nor the broadcast is stored. It keeps
 * TodoResource as the page shows it.
 */
@ApplicationScoped
public class FailAfterBroadcast {

    @Inject
    TransactionSynchronizationRegistry registry;

    void begun(@Observes @Initialized(TransactionScoped.class) Object transaction) {
        if (!Arc.container().requestContext().isActive()) {
            return;
        }
        RoutingContext http = Arc.container().instance(CurrentVertxRequest.class).get().getCurrent();
        if (http == null || !Boolean.parseBoolean(http.request().getParam("failAfterBroadcast"))) {
            return; // not an HTTP request's transaction, or one that did not ask
        }
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                registry.setRollbackOnly();
            }

            @Override
            public void afterCompletion(int status) {
            }
        });
    }
}
