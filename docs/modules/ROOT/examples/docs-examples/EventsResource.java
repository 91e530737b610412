package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;

import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.quarkiverse.cable.CableEventStream;
import io.smallrye.mutiny.Multi;

/** Server-Sent Events with resume, from the recovery page (the tests reconnect with Last-Event-ID, or a page cursor). */
@Path("/")
public class EventsResource {

    @Inject
    CableEventStream streams;

    // tag::sse-events[]
    // Who may stream which room: RoomAuthorization, a StreamAuthorization bean (a refusal answers 403)
    @GET
    @Path("/events/{room}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> events(@RestPath String room, @RestHeader("Last-Event-ID") String lastEventId) {
        return streams.stream("chat:" + room, lastEventId);
    }
    // end::sse-events[]

    // The same stream for a page rendered with a page cursor (its own path here, next to the one above).
    // tag::sse-cursor[]
    @GET
    @Path("/page-events/{room}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> events(@RestPath String room, @RestHeader("Last-Event-ID") String lastEventId,
            @RestQuery String cursor) {
        return streams.stream("chat:" + room, lastEventId, cursor);
    }
    // end::sse-cursor[]
}
