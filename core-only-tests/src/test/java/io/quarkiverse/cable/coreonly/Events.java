package io.quarkiverse.cable.coreonly;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableEventStream;
import io.smallrye.mutiny.Multi;

/** The server-sent events front end of the core: a channel streamed to an {@code EventSource}. */
@Path("/events")
public class Events {

    @Inject
    CableEventStream streams;

    @GET
    @Path("/{room}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> events(@PathParam("room") String room,
            @HeaderParam("Last-Event-ID") String lastEventId) {
        return streams.stream("chat:" + room, lastEventId);
    }
}
