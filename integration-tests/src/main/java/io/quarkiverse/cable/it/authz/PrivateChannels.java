package io.quarkiverse.cable.it.authz;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.StreamAuthorization;
import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.it.context.RequestProbe;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The integration tests' stream authorization: a channel named {@code private:...} streams only to an identity with
 * role {@code member} (basic auth, users in application.properties), on every front end; every other channel streams
 * to anyone, so the rest of the suite runs as before, through this bean.
 */
@Singleton
public class PrivateChannels implements StreamAuthorization {

    /** The last request asked about each channel, so tests can check what the bean was told. */
    public static final Map<String, StreamRequest> ASKED = new ConcurrentHashMap<>();
    /** What the bean saw of its context when asked about each channel ({@link RequestProbe#seen}). */
    public static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    @Inject
    SecurityIdentity identity;

    @Inject
    RequestProbe probe;

    @Override
    public boolean allows(StreamRequest request) {
        ASKED.put(request.channel(), request);
        SEEN.put(request.channel(), RequestProbe.seen(identity, probe));
        return !request.channel().startsWith("private:") || request.identity().hasRole("member");
    }
}
