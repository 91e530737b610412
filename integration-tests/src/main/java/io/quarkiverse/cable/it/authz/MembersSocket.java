package io.quarkiverse.cable.it.authz;

import jakarta.annotation.security.RolesAllowed;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.WebSocket;

/**
 * WebSockets Next's own security on a {@code @StreamFrom} endpoint: {@code @RolesAllowed} refuses the upgrade of a
 * request without the role, before the cable sees the connection.
 */
@WebSocket(path = "/members/{room}")
@RolesAllowed("member")
@StreamFrom("members:{room}")
public class MembersSocket {
}
