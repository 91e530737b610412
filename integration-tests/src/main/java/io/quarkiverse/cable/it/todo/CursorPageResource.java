package io.quarkiverse.cable.it.todo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.TurboStreams;
import io.quarkus.arc.profile.UnlessBuildProfile;
import io.smallrye.mutiny.Multi;

/**
 * The page-cursor pattern (a Turbo list and an SSE list): a note is saved and broadcast in one transaction; a page
 * renders the list's notes and the channel's cursor from one snapshot, and its client starts right after the cursor.
 * The rendered page does not subscribe by itself: its markup for that is in a {@code <template id="subscribe">} that
 * the test inserts when it chooses, so that broadcasts can be committed between render and subscription. It signs
 * Turbo stream names, so it is left out of production builds (which have no Turbo key).
 */
@UnlessBuildProfile("prod")
@Path("/cursor-notes/{list}")
public class CursorPageResource {

    @Inject
    Cable cable;

    @Inject
    CableEventStream streams;

    @Inject
    TurboStreams turbo;

    @Inject
    AgroalDataSource dataSource;

    static String channel(String list) {
        return "notes:" + list;
    }

    /** Saves a note and broadcasts it in the same transaction: as a Turbo append, or as plain text for SSE. */
    @POST
    @Consumes(MediaType.TEXT_PLAIN)
    @Transactional
    public String add(@PathParam("list") String list, @QueryParam("kind") String kind, String text) {
        PageNote note = new PageNote();
        note.list = list;
        note.text = text;
        note.persist();
        note.flush();
        if ("turbo".equals(kind)) {
            turbo.broadcast("append", "notes", "<p>" + TurboStreams.escape(text) + "</p>", channel(list));
        } else {
            cable.broadcast(channel(list), text);
        }
        return "ok";
    }

    /** A Turbo page: the notes, and a {@code <turbo-cable-stream-source>} carrying the cursor, held back. */
    @GET
    @Path("/turbo")
    @Produces(MediaType.TEXT_HTML)
    @Transactional
    public String turboPage(@PathParam("list") String list) throws SQLException {
        Rendered rendered = render(list);
        return notes(rendered.notes()) + "<template id=\"subscribe\">"
                + turbo.streamSourceTag(rendered.cursor(), channel(list)) + "</template>";
    }

    /** An SSE page's state: the notes, and the cursor its EventSource passes back. */
    @GET
    @Path("/sse")
    @Produces(MediaType.TEXT_HTML)
    @Transactional
    public String ssePage(@PathParam("list") String list) throws SQLException {
        Rendered rendered = render(list);
        return notes(rendered.notes()) + "<template id=\"subscribe\" data-cursor=\""
                + TurboStreams.escape(StreamPosition.cursor(rendered.cursor())) + "\"></template>";
    }

    @GET
    @Path("/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> events(@PathParam("list") String list,
            @HeaderParam("Last-Event-ID") String lastEventId, @QueryParam("cursor") String cursor) {
        return streams.stream(channel(list), lastEventId, cursor);
    }

    private record Rendered(List<PageNote> notes, Optional<StreamPosition> cursor) {
    }

    /**
     * The cursor and the notes from one snapshot: on PostgreSQL the transaction is made REPEATABLE READ (its first
     * statement), on MariaDB/MySQL InnoDB's default is; the cursor is read first, so that at READ COMMITTED (H2)
     * nothing can be missed either.
     */
    private Rendered render(String list) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            if (connection.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres")) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                }
            }
        }
        Optional<StreamPosition> cursor = cable.position(channel(list));
        List<PageNote> notes = PageNote.list("list = ?1 order by id", list);
        return new Rendered(notes, cursor);
    }

    private static String notes(List<PageNote> notes) {
        return "<div id=\"notes\">" + notes.stream().map(note -> "<p>" + TurboStreams.escape(note.text) + "</p>")
                .collect(Collectors.joining()) + "</div>";
    }
}
