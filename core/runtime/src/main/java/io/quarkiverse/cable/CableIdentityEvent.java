package io.quarkiverse.cable;

import java.util.Map;

/**
 * An identity came online on the cluster ({@link Online}: its first Action Cable session on any node) or went offline
 * ({@link Offline}: its last session gone, and not back within {@code quarkus.cable.presence.ttl}, also when the node
 * that held it died), as CDI events. On only with {@code quarkus.cable.presence.identity-events=true}.
 *
 * <pre>
 * void online(&#64;Observes CableIdentityEvent.Online online) { ... }
 * void offline(&#64;Observes CableIdentityEvent.Offline offline) { ... }
 * </pre>
 *
 * Each change fires once for the whole cluster, on the node that made it: the node whose connection made the identity
 * present, or whose reaper ended it (unless that node dies between the commit and the event: then nobody is told).
 * Observers run on the cable's presence thread after the commit: keep them short, hand long work elsewhere. A failing
 * observer is logged and changes nothing.
 */
public sealed interface CableIdentityEvent {

    /** What identified the connections ({@link CableIdentification}). */
    Map<String, String> identifiers();

    record Online(Map<String, String> identifiers) implements CableIdentityEvent {
    }

    record Offline(Map<String, String> identifiers) implements CableIdentityEvent {
    }
}
