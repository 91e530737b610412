package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.TurboStreams;

/** The Action Cable page's Turbo Streams: a signed stream source tag, then an append to its stream. */
@ApplicationScoped
public class TurboRoom {

    // tag::turbo-streams-field[]
    @Inject TurboStreams turbo;
    // end::turbo-streams-field[]

    String post(String text) {
        // tag::turbo-streams[]
        String tag = turbo.streamSourceTag("room", "42");
        // <turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="InJvb206NDIi--9f2c..."></turbo-cable-stream-source>

        turbo.broadcast("append", "messages", "<p>" + TurboStreams.escape(text) + "</p>", "room", "42");
        // broadcasts <turbo-stream action="append" target="messages"><template><p>...</p></template></turbo-stream>
        // to the stream "room:42"
        // end::turbo-streams[]
        return tag;
    }
}
