package io.quarkiverse.cable.it;

import java.util.Map;

import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;

/** Names the connection after the {@code user} query parameter or cookie; {@code mallory} is refused. */
@Singleton
public class ChatIdentification implements CableIdentification {

    @Override
    public Map<String, String> identify(CableRequest request) {
        String user = request.queryParam("user");
        if (user == null) {
            user = request.cookie("user");
        }
        if ("mallory".equals(user)) {
            return null;
        }
        return Map.of("user", user == null ? "anonymous" : user);
    }
}
