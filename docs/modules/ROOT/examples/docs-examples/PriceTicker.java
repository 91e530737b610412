package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.Subscription;

/** The object broadcast of the API page (PricesTest checks the JSON subscribers receive). */
@ApplicationScoped
public class PriceTicker {

    @Inject
    Cable cable;

    void tick() {
        // tag::price-broadcast[]
        cable.broadcast("prices", new Price("Q", 4200)); // subscribers receive {"symbol":"Q","cents":4200}
        // end::price-broadcast[]
    }

    /** The typed side of the API page: the same record back, decoded with the same ObjectMapper. */
    Subscription watch(List<Price> seen) {
        // tag::price-typed[]
        return cable.subscribe("prices", CableListener.typed(Price.class, price -> seen.add(price)));
        // end::price-typed[]
    }
}
