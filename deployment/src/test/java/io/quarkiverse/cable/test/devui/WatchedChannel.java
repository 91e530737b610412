package io.quarkiverse.cable.test.devui;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkus.runtime.Startup;

/** Keeps one subscription open from startup, so the Dev UI has a channel to list. */
@Startup
@ApplicationScoped
public class WatchedChannel {

    public static final String CHANNEL = "devui:watched";

    @Inject
    Cable cable;

    @PostConstruct
    void watch() {
        cable.subscribe(CHANNEL, message -> {
        });
    }
}
