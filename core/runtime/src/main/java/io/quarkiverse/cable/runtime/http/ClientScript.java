package io.quarkiverse.cable.runtime.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * Answers requests for the browser client, the ES module the {@code quarkus-cable-client} jar carries. It is read
 * once; its ETag is its SHA-256, so a browser that revalidates gets {@code 304} until the module itself changes (a new
 * extension version), whatever the node or the restart.
 */
final class ClientScript implements Handler<RoutingContext> {

    private final Buffer body;
    private final String etag;

    private ClientScript(byte[] module) {
        this.body = Buffer.buffer(module);
        this.etag = '"' + HexFormat.of().formatHex(sha256(module)) + '"';
    }

    static ClientScript load(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(ClientScriptRecorder.MODULE)) {
            if (in == null) {
                throw new IllegalStateException(ClientScriptRecorder.MODULE + " is not on the class path (it comes with "
                        + "io.quarkiverse.cable:quarkus-cable-client): add that jar back, or set "
                        + "quarkus.cable.client.enabled=false");
            }
            return new ClientScript(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + ClientScriptRecorder.MODULE, e);
        }
    }

    @Override
    public void handle(RoutingContext context) {
        var response = context.response()
                .putHeader(HttpHeaders.ETAG, etag)
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
        if (matches(context.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
            response.setStatusCode(304).end();
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_TYPE, "text/javascript; charset=utf-8")
                .putHeader("X-Content-Type-Options", "nosniff");
        if (context.request().method() == HttpMethod.HEAD) {
            // Vert.x writes a body given to end() whatever the method; a HEAD response has none, only its length.
            response.putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length())).end();
        } else {
            response.end(body);
        }
    }

    /** If-None-Match compares weakly (RFC 9110 13.1.2): a {@code W/} prefix still matches, and so does {@code *}. */
    private boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String tag : ifNoneMatch.split(",")) {
            String candidate = tag.trim();
            if (candidate.equals("*") || candidate.equals(etag) || candidate.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }
}
