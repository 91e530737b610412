package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.runtime.frontend.StreamAuthorizer;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.UserData;

/**
 * What {@link StreamAuthorizationUpgradeCheck} learnt during a WebSocket upgrade, kept in the connection's
 * {@link UserData} (WebSockets Next hands the upgrade's user data to the connection): the identity and path
 * parameters later {@code CableStreams} calls are authorized with, and the decision on its {@code @StreamFrom}
 * streams.
 */
final class UpgradeIdentity {

    @SuppressWarnings({ "unchecked", "rawtypes" })
    static final UserData.TypedKey<SecurityIdentity> IDENTITY = new UserData.TypedKey("io.quarkiverse.cable.identity");
    @SuppressWarnings({ "unchecked", "rawtypes" })
    static final UserData.TypedKey<Map<String, String>> PATH_PARAMS = new UserData.TypedKey(
            "io.quarkiverse.cable.path-params");
    static final UserData.TypedKey<Boolean> STREAM_FROM_ALLOWED = UserData.TypedKey
            .forBoolean("io.quarkiverse.cable.stream-from-allowed");

    private UpgradeIdentity() {
    }

    /** The upgrade's identity, anonymous when none was recorded. */
    public static SecurityIdentity identity(UserData data) {
        return StreamAuthorizer.orAnonymous(data.get(IDENTITY));
    }

    public static Map<String, String> pathParams(UserData data) {
        Map<String, String> params = data.get(PATH_PARAMS);
        return params == null ? Map.of() : params;
    }

    /** True only when the upgrade check ran and the application allowed every {@code @StreamFrom} stream. */
    public static boolean streamFromAllowed(UserData data) {
        return Boolean.TRUE.equals(data.get(STREAM_FROM_ALLOWED));
    }

    /** Header names in lower case, as {@link io.quarkiverse.cable.StreamRequest#headers()} has them. */
    public static Map<String, List<String>> lowerCaseHeaders(Map<String, List<String>> headers) {
        Map<String, List<String>> lower = new java.util.HashMap<>();
        headers.forEach((name, values) -> lower
                .computeIfAbsent(name.toLowerCase(java.util.Locale.ROOT), key -> new java.util.ArrayList<>())
                .addAll(values));
        return Map.copyOf(lower);
    }
}
