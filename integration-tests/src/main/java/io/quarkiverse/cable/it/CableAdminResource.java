package io.quarkiverse.cable.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.TurboStream;
import io.quarkiverse.cable.TurboStreams;
import io.quarkus.arc.profile.IfBuildProfile;

/**
 * Test helpers: server-side disconnects, the connection count, signed Turbo stream names (anyone who can call it gets a
 * capability to any stream), Turbo Stream broadcasts. In test builds only: a production build of the demo has neither
 * this endpoint nor a Turbo key.
 */
@IfBuildProfile("test")
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
     *
    <p>
     * text
     *
    </p>
     * } to element {@code target} of every page streaming {@code stream}.
     */
    @POST
    @Path("/turbo/{stream}/append/{target}")
    public CompletionStage<String> append(@PathParam("stream") String stream, @PathParam("target") String target,
            String text) {
        return turbo.broadcast("append", target, "<p>" + TurboStreams.escape(text) + "</p>", stream)
                .thenApply(ignored -> "ok");
    }

    /** Broadcasts any {@code <turbo-stream>}: {@code target} or {@code targets}, an optional {@code method}. */
    @POST
    @Path("/turbo/{stream}/stream")
    public CompletionStage<String> stream(@PathParam("stream") String stream, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("targets") String targets,
            @QueryParam("method") String method, String template) {
        TurboStream element = TurboStream.action(action).template(template);
        if (target != null) {
            element.target(target);
        }
        if (targets != null) {
            element.targets(targets);
        }
        if (method != null) {
            element.method(method);
        }
        return turbo.broadcast(element, stream).thenApply(ignored -> "ok");
    }

    /** A Turbo 8 refresh now, with the given request id (none when absent). */
    @POST
    @Path("/turbo/{stream}/refresh")
    public CompletionStage<String> refresh(@PathParam("stream") String stream,
            @QueryParam("request-id") String requestId) {
        return turbo.broadcastRefresh(requestId, stream).thenApply(ignored -> "ok");
    }

    /** A refresh carrying the caller's own {@code X-Turbo-Request-Id}, as a Rails controller's change does. */
    @POST
    @Path("/turbo/{stream}/refresh-mine")
    public CompletionStage<String> refreshMine(@PathParam("stream") String stream,
            @HeaderParam("X-Turbo-Request-Id") String requestId) {
        return turbo.broadcastRefresh(requestId, stream).thenApply(ignored -> requestId);
    }

    /** {@code times} debounced refreshes in a row; answers when the coalesced broadcast committed. */
    @POST
    @Path("/turbo/{stream}/refresh-later")
    public CompletionStage<String> refreshLater(@PathParam("stream") String stream,
            @QueryParam("request-id") String requestId, @QueryParam("times") int times) {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            calls.add(turbo.broadcastRefreshLater(requestId, stream).toCompletableFuture());
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenApply(ignored -> "ok");
    }
}
