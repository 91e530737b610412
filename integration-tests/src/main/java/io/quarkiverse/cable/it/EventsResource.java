package io.quarkiverse.cable.it;

import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableEventStream;
import io.smallrye.mutiny.Multi;

/**
 * A channel as Server-Sent Events, resuming after the browser's {@code Last-Event-ID}. {@code drop-after} ends each
 * response after that many events (tests: the browser then reconnects on its own, as after a network drop).
 */
@Path("/events")
public class EventsResource {

    @Inject
    CableEventStream streams;

    @GET
    @Path("/{channel}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> events(@PathParam("channel") String channel,
            @HeaderParam("Last-Event-ID") String lastEventId, @QueryParam("drop-after") @DefaultValue("0") int dropAfter) {
        Multi<OutboundSseEvent> events = streams.stream(channel, lastEventId);
        return dropAfter > 0 ? events.select().first(dropAfter) : events;
    }

    /**
     * The channel with its presence set: the stream is in it as {@code user}, a name the client picks, so a test
     * endpoint only (an application takes the id from the request's authenticated identity).
     */
    @TestEndpoint
    @GET
    @Path("/present/{channel}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> present(@PathParam("channel") String channel,
            @HeaderParam("Last-Event-ID") String lastEventId, @QueryParam("user") @DefaultValue("") String user) {
        return streams.streamWithPresence(channel, lastEventId, user, Map.of("name", user)); // a bad id: 400
    }
}
