package io.quarkiverse.cable.bench.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.quarkiverse.cable.Cable;
import io.vertx.core.json.JsonObject;

/**
 * Numbered broadcasts for the reconnect storm (loadgen {@code recovery-storm}): {@code POST /bench/publish/{stream}
 * ?from=F&count=N} broadcasts {@code {"sequence":F}} ... {@code {"sequence":F+N-1}} in that order to the cable channel
 * {@code fanout:<stream>} (what {@code FanoutChannel} subscribers of that stream receive) and answers with the count once
 * every one of them is committed, so the load generator knows exactly what a disconnected client has missed. Straight
 * to the cable, whatever {@code bench.relay} says: recovery is the cable's.
 */
@Path("/bench/publish")
public class PublishResource {

    @Inject
    Cable cable;

    @POST
    @Path("/{stream}")
    public CompletionStage<String> publish(@RestPath String stream, @RestQuery int from, @RestQuery int count) {
        if (count < 1 || count > 100_000) {
            throw new BadRequestException("count must be 1..100000");
        }
        CompletableFuture<?>[] committed = new CompletableFuture<?>[count];
        for (int i = 0; i < count; i++) {
            // One thread enqueues them in order; the single writer commits in queue order, so offsets follow sequence.
            committed[i] = cable.broadcast("fanout:" + stream, new JsonObject().put("sequence", from + i).encode())
                    .toCompletableFuture();
        }
        return CompletableFuture.allOf(committed).thenApply(done -> Integer.toString(count));
    }
}
