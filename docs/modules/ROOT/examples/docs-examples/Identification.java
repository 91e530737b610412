package io.quarkiverse.cable.examples;

import java.util.Map;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;

// tag::identification[]
@Singleton
public class Identification implements CableIdentification {
    // end::identification[]
    @Inject
    Sessions sessions;

    // tag::identification[]
    @Override
    public Map<String, String> identify(CableRequest request) {   // cookies, headers, query, SecurityIdentity
        String user = sessions.userFor(request.cookie("session"));
        return user == null ? null : Map.of("user", user);         // null: unauthorized
    }
}
// end::identification[]
