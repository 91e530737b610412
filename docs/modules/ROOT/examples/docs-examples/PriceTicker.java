package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;

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
}
