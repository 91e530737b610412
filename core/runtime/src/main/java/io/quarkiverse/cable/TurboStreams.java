package io.quarkiverse.cable;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Turbo Streams over the cable, like turbo-rails: signed stream names for {@code <turbo-cable-stream-source>}, the
 * built-in {@code Turbo::StreamsChannel} that verifies them, and {@code <turbo-stream>} payloads. Inject it; the
 * extension provides the one instance.
 * <p>
 * A signed stream name is {@code base64(json(name)) + "--" + hex(HMAC-SHA256(key, base64(json(name))))}, the
 * format of Rails' {@code MessageVerifier} with SHA256 and JSON, under {@code quarkus.cable.turbo.signing-key}.
 * Names signed with one of {@code quarkus.cable.turbo.previous-signing-keys} still verify (key rotation); new names
 * are always signed with the current key.
 * <p>
 * A signed name is a bearer capability: whoever presents it streams that stream, without any channel's own checks
 * (as in turbo-rails). Sign names only for users allowed to read the stream, and rotate the key to revoke them.
 * <p>
 * Broadcasts cover every Turbo 8 stream action turbo-rails sends: the seven element actions with {@code target} or
 * {@code targets}, {@code method="morph"}, and {@code refresh} with a {@code request-id} and server-side debouncing
 * ({@link #broadcastRefreshLater}). {@link TurboStream} renders a single element.
 */
public interface TurboStreams {

    /** The channel name clients use in the identifier. */
    String CHANNEL = "Turbo::StreamsChannel";

    /** The signed stream name for {@code <turbo-cable-stream-source signed-stream-name="...">}. */
    String signedStreamName(String... streamables);

    /**
     * The stream name inside a signed one, or null when it is unsigned, malformed, tampered with, or signed with a
     * key that is neither the current one nor one of the previous ones.
     */
    String verify(String signedStreamName);

    /** Broadcasts {@code stream} to the stream of {@code streamables}; completes at commit. */
    CompletionStage<Void> broadcast(TurboStream stream, String... streamables);

    /**
     * Broadcasts a Turbo 8 {@code refresh} debounced like turbo-rails' {@code broadcast_refresh_later_to}: refreshes of
     * the same stream and request id within half a second of each other are sent once, half a second after the last.
     * Completes when that one broadcast commits (every coalesced caller sees its outcome).
     */
    CompletionStage<Void> broadcastRefreshLater(String requestId, String... streamables);

    /**
     * The element that subscribes a Turbo page to the stream from a page cursor ({@link Cable#position(String)}, read
     * in the transaction that rendered the page): it carries {@code data-cable-cursor="<epoch>:<offset>"} (or
     * {@code "0"}), which both Turbo clients ({@code @hotwired/turbo-rails}, {@code @anycable/turbo-stream}) send as
     * the {@code cable_cursor} parameter of their subscription, so the stream starts right after what the page shows:
     * see {@link ChannelSubscription#streamFrom(String, Optional)}.
     */
    default String streamSourceTag(Optional<StreamPosition> cursor, String... streamables) {
        return "<turbo-cable-stream-source channel=\"" + CHANNEL + "\" signed-stream-name=\""
                + escape(signedStreamName(streamables)) + "\" data-cable-cursor=\"" + escape(StreamPosition.cursor(cursor))
                + "\"></turbo-cable-stream-source>";
    }

    /**
     * The element that subscribes a Turbo page to the stream:
     * {@code <turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="..."></turbo-cable-stream-source>}.
     */
    default String streamSourceTag(String... streamables) {
        return "<turbo-cable-stream-source channel=\"" + CHANNEL + "\" signed-stream-name=\""
                + escape(signedStreamName(streamables)) + "\"></turbo-cable-stream-source>";
    }

    /** Broadcasts a {@code <turbo-stream>} payload to the stream of {@code streamables}; completes at commit. */
    default CompletionStage<Void> broadcast(String action, String target, String html, String... streamables) {
        return broadcast(TurboStream.action(action).target(requireTarget(action, target)).template(html), streamables);
    }

    /**
     * Broadcasts a Turbo 8 {@code refresh} now: every page streaming {@code streamables} reloads itself, except the one
     * whose request carried {@code requestId} (its {@code X-Turbo-Request-Id}; null refreshes every page).
     */
    default CompletionStage<Void> broadcastRefresh(String requestId, String... streamables) {
        return broadcast(TurboStream.refresh(requestId), streamables);
    }

    /** The stream name of {@code streamables}, joined with {@code :} as turbo-rails does. */
    static String streamName(String... streamables) {
        if (streamables.length == 0) {
            throw new IllegalArgumentException("A Turbo stream needs at least one streamable");
        }
        for (String streamable : streamables) {
            if (streamable == null || streamable.isEmpty()) {
                throw new IllegalArgumentException("A Turbo streamable is null or empty");
            }
        }
        return String.join(":", streamables);
    }

    /**
     * A {@code <turbo-stream action="..." target="..."><template>html</template></turbo-stream>} payload. {@code html}
     * is inserted as it is (it is markup); {@code action} and {@code target} are attribute-escaped. {@code remove}
     * carries no template. A null {@code target} throws {@link IllegalArgumentException} (only {@code refresh} has
     * none); for {@code targets}, {@code method} or {@code refresh}, use {@link TurboStream}.
     */
    static String streamTag(String action, String target, String html) {
        return TurboStream.action(action).target(requireTarget(action, target)).template(html).toHtml();
    }

    /** Escapes text for HTML content and attribute values. */
    static String escape(String text) {
        if (text == null) {
            throw new IllegalArgumentException("Cannot escape a null text");
        }
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    private static String requireTarget(String action, String target) {
        if (target == null && !TurboStream.REFRESH.equals(action)) {
            throw new IllegalArgumentException("Turbo stream action '" + action
                    + "' needs a target (a DOM id); for a CSS selector use TurboStream.action(...).targets(...)");
        }
        return target;
    }
}
