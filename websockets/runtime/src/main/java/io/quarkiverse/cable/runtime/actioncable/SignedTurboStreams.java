package io.quarkiverse.cable.runtime.actioncable;

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

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.TurboStream;
import io.quarkiverse.cable.TurboStreams;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;

/**
 * The {@link TurboStreams} the application injects: names signed with HMAC-SHA256 under the current key and
 * verified under it or a previous one, broadcasts through the {@link Cable}, debounced refreshes.
 */
final class SignedTurboStreams implements TurboStreams {

    private final byte[] key;
    private final List<byte[]> previousKeys;
    private final Cable cable;
    private final RefreshDebouncer refreshes;

    /**
     * Signing with {@code key} (null: signing fails, naming the property), and also verifying names signed with one
     * of {@code previousKeys} (rotation).
     */
    SignedTurboStreams(byte[] key, List<byte[]> previousKeys, Cable cable) {
        this(key, previousKeys, cable, RefreshDebouncer.withDefaultTimer());
    }

    /** With a debouncer of its own (tests choose its delay and timer). */
    SignedTurboStreams(byte[] key, List<byte[]> previousKeys, Cable cable, RefreshDebouncer refreshes) {
        this.key = key;
        this.previousKeys = List.copyOf(previousKeys);
        this.cable = cable;
        this.refreshes = refreshes;
    }

    @Override
    public String signedStreamName(String... streamables) {
        String data = Base64.getEncoder()
                .encodeToString(Json.encode(TurboStreams.streamName(streamables)).getBytes(StandardCharsets.UTF_8));
        return data + "--" + HexFormat.of().formatHex(hmac(requireKey(), data));
    }

    @Override
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

    @Override
    public CompletionStage<Void> broadcast(TurboStream stream, String... streamables) {
        String name = TurboStreams.streamName(streamables);
        return cable.broadcast(name, stream.toHtml());
    }

    @Override
    public CompletionStage<Void> broadcastRefreshLater(String requestId, String... streamables) {
        String name = TurboStreams.streamName(streamables);
        String key = name + '\n' + (requestId == null ? "" : requestId);
        return refreshes.debounce(key, () -> cable.broadcast(name, TurboStream.refresh(requestId).toHtml()));
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
