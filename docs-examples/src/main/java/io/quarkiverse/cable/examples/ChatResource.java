package io.quarkiverse.cable.examples;

// tag::chat-resource[]
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.cable.Cable;

@Path("/chat")
public class ChatResource {

    @Inject
    Cable cable;

    @POST
    public CompletionStage<String> say(String text) {
        return cable.broadcast("chat:lobby", text) // text payload
                .thenApply(ignored -> "sent");     // completes once stored
    }
}
// end::chat-resource[]
