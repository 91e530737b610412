package io.quarkiverse.cable.it.todo;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.TestEndpoint;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * For TransactionCrashIT only: saves one to-do item per payload and broadcasts each payload on {@code channel}, all
 * in one transaction, then halts the JVM the moment the commit returns (no shutdown hooks, no chance for the cable's
 * threads to do anything after the commit), as a SIGKILL right after the commit would.
 */
@TestEndpoint
@Path("/tx-crash")
public class CommitThenHaltResource {

    @Inject
    Cable cable;

    @POST
    @Path("/{channel}")
    @Consumes(MediaType.TEXT_PLAIN)
    public void commitThenHalt(@PathParam("channel") String channel, String payloads) {
        List<String> each = List.of(payloads.split(","));
        QuarkusTransaction.requiringNew().run(() -> {
            for (String payload : each) {
                TodoItem item = new TodoItem();
                item.title = channel + "|" + payload;
                item.persist();
                cable.broadcast(channel, payload);
            }
        });
        Runtime.getRuntime().halt(137);
    }
}
