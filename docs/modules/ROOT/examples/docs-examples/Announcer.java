package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;

/** The WebSockets page's broadcast "anywhere in the application". */
@ApplicationScoped
public class Announcer {

    // tag::room-broadcast-field[]
    @Inject Cable cable;
    // end::room-broadcast-field[]

    void announce() {
        // tag::room-broadcast[]
        cable.broadcast("room:lobby", "{\"text\":\"hello\"}");
        // end::room-broadcast[]
    }
}
