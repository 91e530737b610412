package io.quarkiverse.cable.examples;

// tag::room-resource[]
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;

@Path("/rooms/{room}/messages")
public class RoomResource {

    @Inject
    Cable cable;

    @POST
    public CompletionStage<Response> post(@PathParam("room") String room, String text) {
        return cable.broadcast("chat:" + room, text) // <1>
                .thenApply(committed -> Response.accepted().build())
                .exceptionally(failure -> {
                    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                    if (cause instanceof CableException.QueueFull) {
                        return Response.status(503).build(); // <2>
                    }
                    if (cause instanceof CableException.InvalidMessage) {
                        return Response.status(400).entity(cause.getMessage()).build();
                    }
                    return Response.serverError().build();
                });
    }
}
// end::room-resource[]
