package io.quarkiverse.cable.runtime.actioncable;

import static io.quarkiverse.cable.runtime.actioncable.ActionCableProtocol.TOKEN_PREFIX;

import java.util.ArrayList;
import java.util.List;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * A bearer token offered as a WebSocket sub-protocol, as {@code @anycable/core} sends it with
 * {@code websocketAuthStrategy: 'sub-protocol'} ({@code Sec-WebSocket-Protocol: actioncable-v1-ext-json,
 * anycable-token.<token>}): browsers cannot set headers on a WebSocket request, and a token in the URL ends up in
 * access logs. A filter on the Action Cable upgrade, before Quarkus authenticates the request, that turns the token
 * into {@code Authorization: Bearer <token>}, so SmallRye JWT, OIDC or any other mechanism the application has
 * authenticates it as it would an HTTP request, and takes the token entry out of the offered sub-protocols, so that it
 * is never negotiated, echoed or handed to a {@code CableIdentification} in the headers.
 * <p>
 * An {@code Authorization} header the request already has wins: the token entry is only removed. The filter acts on
 * the Action Cable mount path only; WebSockets Next endpoints have their own form
 * ({@code quarkus.websockets-next.server.propagate-subprotocol-headers}), which reaches this path too. Registered
 * by the deployment's {@code ActionCableProcessor}, before authentication.
 */
final class TokenSubProtocol implements Handler<RoutingContext> {

    private static final String SEC_WEBSOCKET_PROTOCOL = "Sec-WebSocket-Protocol";

    private final String servedPath;

    /**
     * {@code servedPath} is the Action Cable endpoint's as requests name it ({@link #servedPath}), null when the
     * endpoint is disabled.
     */
    TokenSubProtocol(String servedPath) {
        this.servedPath = servedPath;
    }

    /**
     * The mount path under the HTTP root path, as a request names it: {@code /app} and {@code /cable} give
     * {@code /app/cable}.
     */
    static String servedPath(String rootPath, String mountPath) {
        String root = rootPath.startsWith("/") ? rootPath : "/" + rootPath;
        root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        return root + (mountPath.startsWith("/") ? mountPath : "/" + mountPath);
    }

    @Override
    public void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        String offered = request.getHeader(SEC_WEBSOCKET_PROTOCOL);
        if (offered != null && offered.contains(TOKEN_PREFIX) && context.normalizedPath().equals(servedPath)) {
            moveToken(request, offered);
        }
        context.next();
    }

    private static void moveToken(HttpServerRequest request, String offered) {
        List<String> kept = new ArrayList<>();
        String token = null;
        for (String protocol : offered.split(",")) {
            String trimmed = protocol.trim();
            if (!trimmed.startsWith(TOKEN_PREFIX)) {
                kept.add(trimmed);
            } else if (token == null && trimmed.length() > TOKEN_PREFIX.length()) {
                token = trimmed.substring(TOKEN_PREFIX.length());
            }
        }
        request.headers().remove(SEC_WEBSOCKET_PROTOCOL);
        if (!kept.isEmpty()) {
            request.headers().add(SEC_WEBSOCKET_PROTOCOL, String.join(", ", kept));
        }
        if (token != null && request.getHeader(HttpHeaders.AUTHORIZATION) == null) {
            request.headers().add(HttpHeaders.AUTHORIZATION, "Bearer " + token);
        }
    }
}
