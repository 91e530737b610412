package io.quarkiverse.cable.it;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.cable.Cable;

/**
 * Queues {@code count} broadcasts {@code <producer>|0 .. <producer>|count-1} on a channel and answers at once, without
 * waiting for any commit: the graceful-shutdown test stops the process right after and checks that every queued
 * broadcast was still stored. Answers with how many the cable accepted (a full queue refuses the rest).
 */
@TestEndpoint
@Path("/enqueue")
public class EnqueueResource {

    private static final int MAX_COUNT = 100_000;

    @Inject
    Cable cable;

    @POST
    @Path("/{channel}")
    @Produces(MediaType.TEXT_PLAIN)
    public String enqueue(@PathParam("channel") String channel, @QueryParam("count") int count,
            @QueryParam("producer") String producer) {
        if (count < 1 || count > MAX_COUNT) {
            throw new jakarta.ws.rs.BadRequestException("count must be between 1 and " + MAX_COUNT);
        }
        AtomicLong refused = new AtomicLong();
        for (int i = 0; i < count; i++) {
            cable.broadcast(channel, producer + "|" + i).whenComplete((ignored, failure) -> {
                if (failure != null) {
                    refused.incrementAndGet();
                }
            });
        }
        // A refusal at submit time (queue full, stopped, invalid) completes the stage before broadcast() returns.
        return Long.toString(count - refused.get());
    }
}
