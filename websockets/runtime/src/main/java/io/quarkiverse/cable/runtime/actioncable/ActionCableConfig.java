package io.quarkiverse.cable.runtime.actioncable;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/**
 * The Action Cable endpoint's settings: read by the Action Cable front end alone.
 */
@ConfigMapping(prefix = "quarkus.cable.action-cable")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface ActionCableConfig {
    /**
     * Whether the Action Cable endpoint is served at `mount-path`. Off, a WebSocket upgrade there is answered
     * with 404.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * Whether the endpoint also speaks AnyCable's extended protocol, `actioncable-v1-ext-json` (stream positions
     * on broadcasts, history on subscribe), that `@anycable/web` uses to recover what it missed after a
     * reconnect. Plain `actioncable-v1-json` clients are served the same either way.
     */
    @WithDefault("true")
    boolean extendedProtocol();

    /**
     * The largest command frame a client may send. A larger frame closes the connection with code 1009.
     */
    @WithDefault("64K")
    MemorySize maxCommandSize();

    /**
     * Whether clients may whisper (`ChannelSubscription.whisperTo`). Each node then reads the cable's whisper
     * channel (one subscription per node, no database work until somebody whispers); an application that never
     * whispers may turn it off, and whisper commands are then dropped.
     */
    @WithName("whispers.enabled")
    @WithDefault("true")
    boolean whispersEnabled();

    /**
     * How long opening a connection may take: identification (including the wait for the HTTP security identity
     * when `quarkus.http.auth.proactive=false`) up to the welcome. A connection whose security identity is not
     * known in time is told `unauthorized`; one that is neither welcomed nor refused in time (a hung
     * `CableIdentification`) is closed with 1011 and the client reconnects. No client waits unbounded for its
     * welcome.
     */
    @WithDefault("30s")
    Duration identificationTimeout();
}
