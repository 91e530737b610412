package io.quarkiverse.cable.examples;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.cable.entity.CableMessageEntity;

/** The guide's query of the cable's message history through its Panache entity. */
@Path("/")
public class RecentResource {

    // tag::recent[]
    @GET
    @Path("/rooms/{room}/recent")
    @Transactional
    public List<String> recent(@PathParam("room") String room) {
        return CableMessageEntity.latest("chat:" + room, 20).stream()
                .map(message -> new String(message.payload, StandardCharsets.UTF_8))
                .toList();
    }
    // end::recent[]
}
