package io.quarkiverse.cable.runtime.actioncable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.websockets.next.HandshakeRequest;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/**
 * Keeps Action Cable's sub-protocols to the Action Cable endpoint. The HTTP server negotiates sub-protocols for all
 * its WebSocket endpoints from one list, and {@link ActionCableProtocol} adds Action Cable's names to it; without this
 * check a WebSockets Next endpoint of the application would answer a client offering {@code actioncable-v1-json} with
 * that protocol, which it does not speak. On every WebSockets Next endpoint, before WebSockets Next upgrades the
 * request, the Action Cable names leave the offer; a client offering nothing else gets no sub-protocol, and a browser
 * then fails the handshake, as it should. Names the application lists itself in
 * {@code quarkus.websockets-next.server.supported-subprotocols} are left alone. The Action Cable endpoint, itself a
 * WebSockets Next endpoint, keeps them.
 */
@Singleton
public final class ActionCableProtocolGuard implements HttpUpgradeCheck {

    /** Action Cable's names that the application did not list for its own endpoints. */
    private final Set<String> actionCableOnly;

    ActionCableProtocolGuard() {
        this(ConfigProvider.getConfig()
                .getOptionalValues("quarkus.websockets-next.server.supported-subprotocols", String.class)
                .orElse(List.of()));
    }

    ActionCableProtocolGuard(List<String> applicationProtocols) {
        Set<String> names = new HashSet<>(ActionCableProtocol.NEGOTIATED);
        names.removeAll(applicationProtocols);
        this.actionCableOnly = Set.copyOf(names);
    }

    @Override
    public boolean appliesTo(String endpointId) {
        return !ActionCableEndpoint.ENDPOINT_ID.equals(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        withoutActionCable(context.httpRequest());
        return CheckResult.permitUpgrade();
    }

    /** Takes Action Cable's names out of the sub-protocols {@code request} offers. */
    void withoutActionCable(HttpServerRequest request) {
        String offered = request.getHeader(HandshakeRequest.SEC_WEBSOCKET_PROTOCOL);
        if (offered == null || !offered.contains(ActionCableProtocol.NAME_PREFIX) || actionCableOnly.isEmpty()) {
            return;
        }
        List<String> kept = new ArrayList<>();
        for (String protocol : offered.split(",")) {
            String trimmed = protocol.trim();
            if (!actionCableOnly.contains(trimmed)) {
                kept.add(trimmed);
            }
        }
        request.headers().remove(HandshakeRequest.SEC_WEBSOCKET_PROTOCOL);
        if (!kept.isEmpty()) {
            request.headers().add(HandshakeRequest.SEC_WEBSOCKET_PROTOCOL, String.join(", ", kept));
        }
    }
}
