package io.quarkiverse.cable.it;

import java.util.Map;

import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;

/**
 * Names the connection after the {@code user} query parameter or cookie, else the authenticated principal;
 * {@code mallory} is refused; {@code defect}
 * makes identification throw an {@link Error}; {@code hung} makes it hang for three minutes.
 */
@Singleton
public class ChatIdentification implements CableIdentification {

    /**
     * What identification saw of its context, by the {@code probe} query parameter of the connection
     * ({@link io.quarkiverse.cable.it.context.RequestProbe#seen}).
     */
    public static final java.util.Map<String, String> SEEN = new java.util.concurrent.ConcurrentHashMap<>();

    @jakarta.inject.Inject
    io.quarkus.security.identity.SecurityIdentity securityIdentity;

    @jakarta.inject.Inject
    io.quarkiverse.cable.it.context.RequestProbe probe;

    @Override
    public Map<String, String> identify(CableRequest request) {
        String probed = request.queryParam("probe");
        if (probed != null) {
            SEEN.put(probed, io.quarkiverse.cable.it.context.RequestProbe.seen(securityIdentity, probe));
        }
        String user = request.queryParam("user");
        if (user == null) {
            user = request.cookie("user");
        }
        if (user == null && request.identity() != null) {
            user = request.identity().getPrincipal().getName(); // an authenticated request (a token)
        }
        if ("mallory".equals(user)) {
            return null;
        }
        if ("hung".equals(user)) {
            // An identification that hangs (a remote call that never answers), for the open-timeout test.
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MINUTES.toNanos(3));
        }
        if ("defect".equals(user)) {
            // A defect in identification that is not an ordinary exception (tests: the connection must still end).
            throw new ExceptionInInitializerError("identification defect for tests");
        }
        return Map.of("user", user == null ? "anonymous" : user);
    }
}
