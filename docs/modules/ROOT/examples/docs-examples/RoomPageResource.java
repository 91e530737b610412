package io.quarkiverse.cable.examples;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.jboss.resteasy.reactive.RestPath;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.TurboStreams;

/** The Action Cable page's Turbo room page, rendered with a page cursor so its stream source misses nothing. */
@Path("/room-pages/{id}")
public class RoomPageResource {

    @Inject
    Cable cable;

    @Inject
    TurboStreams turbo;

    // tag::turbo-cursor[]
    @GET @Produces(MediaType.TEXT_HTML) @Transactional
    public String room(@RestPath String id) {
        Optional<StreamPosition> cursor = cable.position(TurboStreams.streamName("room", id)); // first
        List<Message> messages = Message.list("room", id);                                   // then the data
        return render(messages) + turbo.streamSourceTag(cursor, "room", id);
    }
    // <turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="..." data-cable-cursor="k3x9a:41">
    // end::turbo-cursor[]

    static String render(List<Message> messages) {
        return messages.stream().map(message -> "<p>" + TurboStreams.escape(message.text) + "</p>")
                .collect(Collectors.joining());
    }
}
