package io.quarkiverse.cable.runtime.actioncable;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;

/**
 * The sub-protocols of the Action Cable endpoint, in one place. The HTTP server negotiates them: it selects the first
 * protocol the client offers among those listed here, so a client offering only an unknown version plus the
 * {@code actioncable-unsupported} sentinel gets the sentinel and closes for good. Another protocol version is one more
 * entry in {@link #SERVED}.
 */
@Singleton
public class ActionCableProtocol implements HttpServerOptionsCustomizer {

    static final String V1_JSON = "actioncable-v1-json";
    /**
     * AnyCable's extended protocol: the v1-json frames plus stream positions on broadcasts, a session id in the
     * welcome, and history on subscribe (see the Recoverable streams page).
     */
    static final String EXT_JSON = "actioncable-v1-ext-json";
    static final String UNSUPPORTED = "actioncable-unsupported";
    /**
     * Not a protocol: AnyCable clients offer {@code anycable-token.<token>} beside one to carry a bearer token, which
     * {@link TokenSubProtocol} moves into the {@code Authorization} header before the protocol is negotiated.
     */
    static final String TOKEN_PREFIX = "anycable-token.";
    /** What every Action Cable protocol name starts with. */
    static final String NAME_PREFIX = "actioncable-";

    /** The protocols this endpoint speaks. */
    static final List<String> SERVED = List.of(V1_JSON, EXT_JSON);
    /**
     * Every name this class may add to the server's list; {@link ActionCableProtocolGuard} keeps them from the
     * application's WebSockets Next endpoints.
     */
    static final List<String> NEGOTIATED = List.of(V1_JSON, EXT_JSON, UNSUPPORTED);

    @Inject
    ActionCableConfig config;

    /**
     * Whether a connection that negotiated {@code subProtocol} is served. A client that sent no
     * {@code Sec-WebSocket-Protocol} (bench tools) is served as {@code actioncable-v1-json}.
     */
    static boolean serves(String subProtocol) {
        return subProtocol == null || SERVED.contains(subProtocol);
    }

    /** Whether a connection that negotiated {@code subProtocol} speaks the extended protocol. */
    static boolean extended(String subProtocol) {
        return EXT_JSON.equals(subProtocol);
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        addProtocols(options, config.extendedProtocol());
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        addProtocols(options, config.extendedProtocol());
    }

    private static void addProtocols(HttpServerOptions options, boolean extended) {
        List<String> present = options.getWebSocketSubProtocols() == null ? List.of()
                : options.getWebSocketSubProtocols();
        for (String protocol : SERVED) {
            // Not offered, the extended protocol is never negotiated: an ext-only client fails its handshake.
            if (!extended && protocol.equals(EXT_JSON)) {
                continue;
            }
            if (!present.contains(protocol)) {
                options.addWebSocketSubProtocol(protocol);
            }
        }
        if (!present.contains(UNSUPPORTED)) {
            options.addWebSocketSubProtocol(UNSUPPORTED);
        }
    }
}
