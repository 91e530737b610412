package io.quarkiverse.cable.it;

import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;

/**
 * Broadcasts the request body to a channel and answers once it is committed: 202, or 400 (invalid), 503 (queue full),
 * 504 (commit outcome unknown), 500 (not stored).
 */
@TestEndpoint
@Path("/broadcast")
public class BroadcastResource {

    @Inject
    Cable cable;

    @POST
    @Path("/{channel}")
    @Consumes(MediaType.TEXT_PLAIN)
    public CompletionStage<Response> broadcast(@PathParam("channel") String channel, String body) {
        return cable.broadcast(channel, body)
                .thenApply(ignored -> Response.accepted().build())
                .exceptionally(BroadcastResource::failure);
    }

    private static Response failure(Throwable failure) {
        Throwable cause = failure.getCause() != null && !(failure instanceof CableException) ? failure.getCause()
                : failure;
        Response.Status status = switch (cause) {
            case CableException.InvalidMessage invalid -> Response.Status.BAD_REQUEST;
            case CableException.QueueFull full -> Response.Status.SERVICE_UNAVAILABLE;
            case CableException.CommitUnknown unknown -> Response.Status.GATEWAY_TIMEOUT;
            default -> Response.Status.INTERNAL_SERVER_ERROR;
        };
        return Response.status(status).type(MediaType.TEXT_PLAIN).entity(cause.getMessage()).build();
    }
}
