package io.quarkiverse.cable.examples;

// tag::rename-resource[]
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.jboss.resteasy.reactive.RestHeader;

import io.quarkiverse.cable.Cable;

@Path("/boards/{board}/title")
public class RenameResource {

    @Inject
    Cable cable;

    /** The page that made the change sends its cable session (the welcome's sid) as X-Socket-ID; no echo for it. */
    @PUT
    public CompletionStage<Void> rename(@PathParam("board") String board, @RestHeader("X-Socket-ID") String socketId,
            String title) {
        return cable.excluding(socketId)                  // null (no header): everyone
                .broadcast("board:" + board, new Title(title));
    }

    public record Title(String title) {
    }
}
// end::rename-resource[]
