package io.quarkiverse.cable.deployment.websockets;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

import io.quarkus.websockets.next.WebSocket;

/**
 * The path a WebSockets Next endpoint is served at. A {@code @WebSocket} class nested in another {@code @WebSocket}
 * class is a sub-endpoint: WebSockets Next serves it at the enclosing path followed by its own, so its path
 * parameters include the enclosing ones. {@code @StreamFrom} templates are checked against this joined path.
 */
final class EndpointPaths {

    private static final DotName WEB_SOCKET = DotName.createSimple(WebSocket.class);

    private EndpointPaths() {
    }

    /** The joined path of {@code endpoint}, in the {@code {name}} form its annotations use. */
    static String joinedPath(IndexView index, ClassInfo endpoint) {
        AnnotationInstance webSocket = endpoint.declaredAnnotation(WEB_SOCKET);
        String own = webSocket == null ? "" : webSocket.value("path").asString();
        if (endpoint.nestingType() != ClassInfo.NestingType.INNER) {
            return own;
        }
        ClassInfo enclosing = index.getClassByName(endpoint.enclosingClass());
        if (enclosing == null || enclosing.declaredAnnotation(WEB_SOCKET) == null) {
            return own;
        }
        return join(joinedPath(index, enclosing), own);
    }

    /** WebSockets Next identifies an endpoint by {@code endpointId}, defaulting to the class name. */
    static String endpointId(ClassInfo endpoint) {
        AnnotationValue id = endpoint.declaredAnnotation(WEB_SOCKET).value("endpointId");
        return id == null || id.asString().isEmpty() ? endpoint.name().toString() : id.asString();
    }

    /** Joins two path segments with exactly one {@code /} between them. */
    static String join(String prefix, String path) {
        String head = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return path.startsWith("/") ? head + path : head + "/" + path;
    }
}
