package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkiverse.cable.Cable;

/** The API page's broadcast that does not wait for the transaction it runs in. */
@ApplicationScoped
public class ImportJob {

    @Inject
    Cable cable;

    @Transactional
    void importRows() {
        // tag::without-transaction[]
        cable.withoutTransaction().broadcast("import:progress", "50%").toCompletableFuture().join(); // fine inside it
        // end::without-transaction[]
    }
}
