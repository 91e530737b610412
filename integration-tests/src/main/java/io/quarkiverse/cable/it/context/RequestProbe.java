package io.quarkiverse.cable.it.context;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * A request-scoped bean: each request context gets one with a number of its own. The callback context tests read it
 * (and the injected {@code SecurityIdentity}) from the cable's callbacks, where both fail outside a request context.
 */
@RequestScoped
public class RequestProbe {

    private static final AtomicInteger CREATED = new AtomicInteger();

    private int number;

    @PostConstruct
    void create() {
        number = CREATED.incrementAndGet();
    }

    public int number() {
        return number;
    }

    /**
     * What a callback sees: {@code <principal or anonymous>/<its request bean's number>}, or {@code failed:<exception>}
     * when there is no request context (the callback goes on: a test asks, the application does not depend on it).
     */
    public static String seen(SecurityIdentity identity, RequestProbe probe) {
        try {
            String who = identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
            return who + "/" + probe.number();
        } catch (RuntimeException e) {
            return "failed:" + e.getClass().getSimpleName();
        }
    }
}
