package io.quarkiverse.cable.examples;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/** The application's own sessions, which the Action Cable page's identification looks up: a cookie value per user. */
@ApplicationScoped
public class Sessions {

    private final Map<String, String> users = new ConcurrentHashMap<>();

    public String login(String user) {
        String session = UUID.randomUUID().toString();
        users.put(session, user);
        return session;
    }

    public String userFor(String session) {
        return session == null ? null : users.get(session);
    }
}
