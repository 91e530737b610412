package io.quarkiverse.cable.runtime.sse;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Server-Sent Events settings (`CableEventStream`): read and validated by the SSE front end alone, at startup when
 * the application serves SSE.
 */
@ConfigMapping(prefix = "quarkus.cable.sse")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableSseConfig {
    /**
     * The most bytes (the events' characters) an SSE stream may have waiting to be written to its client, live
     * events and their ids included (a replay in progress counts as the pages not yet handed over are read from
     * the shared replay, not copied). A stream that exceeds it is closed as too slow and its subscription ends.
     * The stall timeout is `websocket.stall-timeout`: a stream with events waiting and none written for that long
     * is closed too. 4 MiB by default, as `websocket.max-pending-bytes`.
     */
    @WithDefault("4M")
    MemorySize maxPendingBytes();

    /**
     * How long an SSE stream may go without writing anything before the cable writes a heartbeat (an SSE comment
     * line, which `EventSource` ignores). It keeps proxies and load balancers from closing a quiet stream as
     * idle, and it gives the network something to deliver: a client that vanished without closing (a laptop
     * lid, a network switch) whose heartbeats cannot be written for `websocket.stall-timeout` is closed as
     * stalled. SSE has no way back from the client, so there is no pong deadline: a client that vanished behind
     * a proxy that still takes the bytes is noticed by `max-stream-duration`. `0` turns heartbeats off.
     */
    @WithDefault("10s")
    Duration heartbeatInterval();

    /**
     * The longest one SSE response lasts. The cable then ends it as a complete response (no error, nothing
     * logged), `EventSource` reconnects by itself with `Last-Event-ID` and the new stream replays exactly what
     * the client had not received; a presence member's session is handed to `quarkus.cable.presence.ttl`, so a
     * client that comes back within it is never seen to leave, and one that vanished without closing (a proxy
     * that stopped forwarding still takes the heartbeats, so nothing stalls) leaves at most this plus the TTL
     * after it vanished: 2 min 16 s with the defaults, instead of TCP's retransmission limit (about 15 minutes).
     * Each stream ends at a random point in the last quarter of the duration, so the streams opened together
     * (a node's restart) do not all reconnect together. Counted as `cable.sse.max.duration.ends`. No `retry:`
     * hint is sent: it would also pace the reconnects after a crash or an outage, which the browsers' own
     * delay (3 to 5 s) keeps gentle. `0` lets a stream last as long as its client (or TCP) keeps it.
     */
    @WithDefault("2m")
    Duration maxStreamDuration();

    /**
     * The most SSE streams one client may have open on this node at once. A client is the authenticated
     * identity's principal name when the request is authenticated, otherwise its remote address (an IPv6 address
     * counts with its /64 network). A request past it is answered `429 Too Many Requests` with `Retry-After: 10`
     * before anything is sent or read, counted as `cable.limits.refusals{reason="streams_per_client"}` and logged
     * (rate-limited); a stream gives its place back however it ends (the client closed it, the endpoint completed
     * it, `max-stream-duration`, a stall, a failure). Without it one client opening hundreds of streams costs every
     * other client as much as hundreds of clients would. 16 by default: a browser keeps at most 6 connections per
     * origin over HTTP/1.1 (all its tabs together), and over HTTP/2 one stream per `EventSource` of each open tab;
     * 16 leaves room for several tabs, or a few users behind one address (a NAT), while one client stays one
     * client. The remote address is the one Quarkus gives the request: behind a reverse proxy or load balancer
     * every client has the proxy's address, and all share its 16 streams, unless the application enables
     * `quarkus.http.proxy.proxy-address-forwarding` (with `quarkus.http.proxy.allow-forwarded` or
     * `allow-x-forwarded`, and `trusted-proxies`). `EventSource` does not reconnect after a 429. A stream made
     * outside an HTTP request has no client and is not counted.
     */
    @WithDefault("16")
    int maxStreamsPerClient();
}
