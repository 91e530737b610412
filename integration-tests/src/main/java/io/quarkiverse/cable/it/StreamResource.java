package io.quarkiverse.cable.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.jboss.resteasy.reactive.RestStreamElementType;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;

/**
 * Streams a channel to the browser as server-sent events: the demo page's receiving side. The subscription lives as
 * long as the HTTP response.
 */
@Path("/stream")
public class StreamResource {

    @Inject
    Cable cable;

    @GET
    @Path("/{channel}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.TEXT_PLAIN)
    public Multi<String> stream(@PathParam("channel") String channel) {
        return Multi.createFrom().emitter(emitter -> {
            Subscription subscription = cable.subscribe(channel, message -> emitter.emit(message.text()));
            emitter.onTermination(subscription::close);
        }, BackPressureStrategy.BUFFER);
    }
}
