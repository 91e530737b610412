package io.quarkiverse.cable;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletionStage;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;

/**
 * Turbo Streams over the cable, like turbo-rails: signed stream names for {@code <turbo-cable-stream-source>}, the
 * built-in {@code Turbo::StreamsChannel} that verifies them, and {@code <turbo-stream>} payloads.
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
public final class TurboStreams {

    /** The channel name clients use in the identifier. */
    public static final String CHANNEL = "Turbo::StreamsChannel";

    private final byte[] key;
    private final List<byte[]> previousKeys;
    private final Cable cable;
    private final RefreshDebouncer refreshes;

    public TurboStreams(byte[] key, Cable cable) {
        this(key, List.of(), cable);
    }

    /**
     * Signing with {@code key}, and also verifying names signed with one of {@code previousKeys} (rotation).
     */
    public TurboStreams(byte[] key, List<byte[]> previousKeys, Cable cable) {
        this(key, previousKeys, cable, RefreshDebouncer.withDefaultTimer());
    }

    /** With a debouncer of its own (tests choose its delay and timer). */
    TurboStreams(byte[] key, Cable cable, RefreshDebouncer refreshes) {
        this(key, List.of(), cable, refreshes);
    }

    private TurboStreams(byte[] key, List<byte[]> previousKeys, Cable cable, RefreshDebouncer refreshes) {
        this.key = key;
        this.previousKeys = List.copyOf(previousKeys);
        this.cable = cable;
        this.refreshes = refreshes;
    }

    /** The stream name of {@code streamables}, joined with {@code :} as turbo-rails does. */
    public static String streamName(String... streamables) {
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

    /** The signed stream name for {@code <turbo-cable-stream-source signed-stream-name="...">}. */
    public String signedStreamName(String... streamables) {
        String data = Base64.getEncoder()
                .encodeToString(Json.encode(streamName(streamables)).getBytes(StandardCharsets.UTF_8));
        return data + "--" + HexFormat.of().formatHex(hmac(requireKey(), data));
    }

    /**
     * The stream name inside a signed one, or null when it is unsigned, malformed, tampered with, or signed with a
     * key that is neither the current one nor one of the previous ones.
     */
    public String verify(String signedStreamName) {
        if (signedStreamName == null) {
            return null;
        }
        int separator = signedStreamName.lastIndexOf("--");
        if (separator <= 0) {
            return null;
        }
        String data = signedStreamName.substring(0, separator);
        byte[] signature;
        try {
            signature = HexFormat.of().parseHex(signedStreamName.substring(separator + 2));
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!signedWithAKnownKey(data, signature)) {
            return null;
        }
        try {
            Object name = Json.decodeValue(new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8));
            return name instanceof String text && !text.isEmpty() ? text : null;
        } catch (IllegalArgumentException | DecodeException e) {
            return null;
        }
    }

    /**
     * The element that subscribes a Turbo page to the stream from a page cursor ({@link Cable#position(String)}, read
     * in the transaction that rendered the page): it carries {@code data-cable-cursor="<epoch>:<offset>"} (or
     * {@code "0"}), which both Turbo clients ({@code @hotwired/turbo-rails}, {@code @anycable/turbo-stream}) send as
     * the {@code cable_cursor} parameter of their subscription, so the stream starts right after what the page shows:
     * see {@link ChannelSubscription#streamFrom(String, java.util.Optional)}.
     */
    public String streamSourceTag(java.util.Optional<StreamPosition> cursor, String... streamables) {
        return "<turbo-cable-stream-source channel=\"" + CHANNEL + "\" signed-stream-name=\""
                + escape(signedStreamName(streamables)) + "\" data-cable-cursor=\"" + escape(StreamPosition.cursor(cursor))
                + "\"></turbo-cable-stream-source>";
    }

    /**
     * The element that subscribes a Turbo page to the stream:
     * {@code <turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="..."></turbo-cable-stream-source>}.
     */
    public String streamSourceTag(String... streamables) {
        return "<turbo-cable-stream-source channel=\"" + CHANNEL + "\" signed-stream-name=\""
                + escape(signedStreamName(streamables)) + "\"></turbo-cable-stream-source>";
    }

    /**
     * A {@code <turbo-stream action="..." target="..."><template>html</template></turbo-stream>} payload. {@code html}
     * is inserted as it is (it is markup); {@code action} and {@code target} are attribute-escaped. {@code remove}
     * carries no template. A null {@code target} throws {@link IllegalArgumentException} (only {@code refresh} has
     * none); for {@code targets}, {@code method} or {@code refresh}, use {@link TurboStream}.
     */
    public static String streamTag(String action, String target, String html) {
        return TurboStream.action(action).target(requireTarget(action, target)).template(html).toHtml();
    }

    /** Broadcasts a {@code <turbo-stream>} payload to the stream of {@code streamables}; completes at commit. */
    public CompletionStage<Void> broadcast(String action, String target, String html, String... streamables) {
        return broadcast(TurboStream.action(action).target(requireTarget(action, target)).template(html), streamables);
    }

    /** Broadcasts {@code stream} to the stream of {@code streamables}; completes at commit. */
    public CompletionStage<Void> broadcast(TurboStream stream, String... streamables) {
        String name = streamName(streamables);
        return cable.broadcast(name, stream.toHtml());
    }

    /**
     * Broadcasts a Turbo 8 {@code refresh} now: every page streaming {@code streamables} reloads itself, except the one
     * whose request carried {@code requestId} (its {@code X-Turbo-Request-Id}; null refreshes every page).
     */
    public CompletionStage<Void> broadcastRefresh(String requestId, String... streamables) {
        return broadcast(TurboStream.refresh(requestId), streamables);
    }

    /**
     * Broadcasts a Turbo 8 {@code refresh} debounced like turbo-rails' {@code broadcast_refresh_later_to}: refreshes of
     * the same stream and request id within half a second of each other are sent once, half a second after the last.
     * Completes when that one broadcast commits (every coalesced caller sees its outcome).
     */
    public CompletionStage<Void> broadcastRefreshLater(String requestId, String... streamables) {
        String name = streamName(streamables);
        String key = name + '\n' + (requestId == null ? "" : requestId);
        return refreshes.debounce(key, () -> cable.broadcast(name, TurboStream.refresh(requestId).toHtml()));
    }

    private static String requireTarget(String action, String target) {
        if (target == null && !TurboStream.REFRESH.equals(action)) {
            throw new IllegalArgumentException("Turbo stream action '" + action
                    + "' needs a target (a DOM id); for a CSS selector use TurboStream.action(...).targets(...)");
        }
        return target;
    }

    /** Escapes text for HTML content and attribute values. */
    public static String escape(String text) {
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

    private boolean signedWithAKnownKey(String data, byte[] signature) {
        if (MessageDigest.isEqual(hmac(requireKey(), data), signature)) {
            return true;
        }
        for (byte[] previous : previousKeys) {
            if (MessageDigest.isEqual(hmac(previous, data), signature)) {
                return true;
            }
        }
        return false;
    }

    private byte[] requireKey() {
        if (key == null) {
            throw new IllegalStateException(
                    "Turbo stream signing needs quarkus.cable.turbo.signing-key; it is not set");
        }
        return key;
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
