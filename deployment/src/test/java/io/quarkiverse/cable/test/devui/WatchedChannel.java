package io.quarkiverse.cable.test.devui;

import java.util.Map;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableIdentities;
import io.quarkus.runtime.Startup;

/**
 * Keeps one subscription open from startup, so the Dev UI has a channel to list, and sends one remote disconnect, so
 * the messages table holds a row of the cable's own (on cable:control:disconnect) for the Dev UI to hide.
 */
@Startup
@ApplicationScoped
public class WatchedChannel {

    public static final String CHANNEL = "devui:watched";

    @Inject
    Cable cable;

    @Inject
    CableIdentities identities;

    @PostConstruct
    void watch() {
        cable.subscribe(CHANNEL, message -> {
        });
        identities.disconnect(Map.of("user", "nobody"), false);
    }
}
