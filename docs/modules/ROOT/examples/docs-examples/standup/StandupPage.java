package io.quarkiverse.cable.examples.standup;

// Outside the snippet: the tutorial's reader has Sessions in the same package as this page.
import io.quarkiverse.cable.examples.Sessions;

// tag::page[]
import java.net.URI;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.StreamPosition;

@Path("/standup")
public class StandupPage {

    @Inject
    Cable cable;

    @Inject
    Sessions sessions;                    // the application's login: a cookie the connection's identification reads

    /** /standup/login?name=alice&team=core: signs in, then shows the board. */
    @GET
    @Path("/login")
    public Response login(@RestQuery String name, @RestQuery String team) {
        NewCookie session = new NewCookie.Builder("session").value(sessions.login(name)).path("/").httpOnly(true)
                .build();
        return Response.seeOther(URI.create("/standup/" + team)).cookie(session).build();
    }

    /** The board: its notes as they are now, and the cursor its client subscribes from. */
    @GET
    @Path("/{team}")
    @Produces(MediaType.TEXT_HTML)
    @Transactional
    public String board(@RestPath String team) {
        Optional<StreamPosition> cursor = cable.position(Standup.channel(team));     // the cursor first,
        String notes = Note.ofTeam(team).stream()                                    // then the data
                .map(note -> "<li>" + escape(note.author + ": " + note.text) + "</li>")
                .collect(Collectors.joining());
        return PAGE.replace("{team}", escape(team)).replace("{cursor}", StreamPosition.cursor(cursor))
                .replace("{notes}", notes);
    }

    /** Text for HTML content and attribute values. */
    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    private static final String PAGE = """
            <!doctype html>
            <html>
            <head><meta charset="utf-8"><title>Standup: {team}</title></head>
            <body data-team="{team}" data-cursor="{cursor}">
            <h1>Standup: {team}</h1>
            <p>Here: <span id="here"></span></p>
            <ul id="notes">{notes}</ul>
            <form id="post"><input name="text" autocomplete="off" required> <button>Post</button></form>
            <script type="module">
              import { createCable } from "/_cable/cable.js";           // served by the extension, no npm

              const { team, cursor } = document.body.dataset;
              const cable = createCable({ protocol: "actioncable-v1-ext-json" });
              const board = cable.subscribeTo("StandupChannel", { team, cursor });

              board.on("message", (note) => {                          // a Note.View, as JSON
                const item = document.createElement("li");
                item.textContent = note.author + ": " + note.text;
                document.getElementById("notes").append(item);
              });
              board.on("info", (info) => {                             // the history after the cursor is gone
                if (info.type === "history_not_found") location.reload();
              });

              const here = new Map();
              const showHere = () => document.getElementById("here").textContent =
                  [...here.values()].map((info) => info.name).join(", ");
              board.on("presence", (event) => {
                if (event.type === "join") here.set(event.id, event.info);
                if (event.type === "leave") here.delete(event.id);
                showHere();
              });
              board.on("connect", async () => {                        // again after a reconnect
                here.clear();
                for (const [id, info] of Object.entries(await board.presence.info())) here.set(id, info);
                showHere();
              });

              document.getElementById("post").addEventListener("submit", (event) => {
                event.preventDefault();
                board.perform("post", { text: event.target.text.value });
                event.target.reset();
              });
            </script>
            </body>
            </html>
            """;
}
// end::page[]
