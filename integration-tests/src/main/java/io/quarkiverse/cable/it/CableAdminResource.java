package io.quarkiverse.cable.it;

import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.TurboStreams;

/** Test and demo helpers: server-side disconnects, signed Turbo stream names, Turbo Stream broadcasts. */
@Path("/cable-admin")
public class CableAdminResource {

    @Inject
    CableConnections connections;

    @Inject
    TurboStreams turbo;

    @POST
    @Path("/disconnect")
    @Produces(MediaType.TEXT_PLAIN)
    public String disconnect(@QueryParam("reconnect") boolean reconnect) {
        return Integer.toString(connections.disconnectAll("remote", reconnect));
    }

    @GET
    @Path("/connections")
    @Produces(MediaType.TEXT_PLAIN)
    public String count() {
        return Integer.toString(connections.count());
    }

    @GET
    @Path("/turbo/{stream}/signed")
    @Produces(MediaType.TEXT_PLAIN)
    public String signed(@PathParam("stream") String stream) {
        return turbo.signedStreamName(stream);
    }

    @GET
    @Path("/turbo/{stream}/source")
    @Produces(MediaType.TEXT_PLAIN)
    public String source(@PathParam("stream") String stream) {
        return turbo.streamSourceTag(stream);
    }

    /**
     * Appends {@code
     * <p>
     * text
     * </p>
     * } to element {@code target} of every page streaming {@code stream}.
     */
    @POST
    @Path("/turbo/{stream}/append/{target}")
    public CompletionStage<String> append(@PathParam("stream") String stream, @PathParam("target") String target,
            String text) {
        return turbo.broadcast("append", target, "<p>" + TurboStreams.escape(text) + "</p>", stream)
                .thenApply(ignored -> "ok");
    }
}
