package io.quarkiverse.cable.it;

import java.util.Map;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.cable.CableIdentities;

/**
 * Broadcasts to and disconnects the identity {@code user=<user>} (what {@link ChatIdentification} gives a connection
 * of {@code ?user=<user>}), answering 202 once the broadcast or the command is committed.
 */
@TestEndpoint
@Path("/identities/{user}")
public class IdentityResource {

    @Inject
    CableIdentities identities;

    @POST
    @Path("/broadcast")
    @Consumes(MediaType.TEXT_PLAIN)
    public CompletionStage<Response> broadcast(@PathParam("user") String user, String body) {
        return identities.broadcast(Map.of("user", user), body).thenApply(ignored -> Response.accepted().build());
    }

    @POST
    @Path("/disconnect")
    public CompletionStage<Response> disconnect(@PathParam("user") String user,
            @QueryParam("reconnect") boolean reconnect) {
        return identities.disconnect(Map.of("user", user), reconnect).thenApply(ignored -> Response.accepted().build());
    }
}
