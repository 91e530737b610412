package io.quarkiverse.cable.examples;

// tag::price-resource[]
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.MutinyCable;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

@Path("/prices")
public class PriceResource {

    @Inject
    MutinyCable cable;

    @POST
    public Uni<Void> publish(Price price) {
        return cable.broadcast("prices", price); // a Uni: broadcast when subscribed
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<String> stream() {
        return cable.messages("prices", 256) // at most 256 buffered for a slow consumer
                .map(CableMessage::text);
    }
}
// end::price-resource[]
