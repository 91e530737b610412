package io.quarkiverse.cable.runtime.http;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The HTTP publish endpoint, wire-compatible with AnyCable's HTTP broadcaster (the `anycable` gem's `http`
 * broadcast adapter, `@anycable/serverless-js`): services that cannot reach the database POST broadcasts to it.
 * Off by default (see the Publishing page). Read and validated by the endpoint alone.
 */
@ConfigMapping(prefix = "quarkus.cable.http-broadcast")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableHttpBroadcastConfig {
    /**
     * Whether the endpoint is served. Enabling it without a `secret` fails startup: an unauthenticated publish
     * endpoint would let anyone write to every channel.
     */
    @WithDefault("false")
    boolean enabled();

    /**
     * The path of the endpoint (AnyCable's default). While the endpoint is enabled, its requests are served before
     * Quarkus Security authenticates them (the endpoint checks its own secret), so the application's HTTP
     * authentication mechanisms and permissions do not apply to this path.
     */
    @WithDefault("/_broadcast")
    String path();

    /**
     * The secret a publisher sends as `Authorization: Bearer <secret>` (AnyCable's `broadcast_key`). Required when
     * the endpoint is enabled, at least 16 bytes (UTF-8; a shorter one fails startup without printing it); keep it
     * secret and the same on every node. A request without it is answered `401`, one with another secret `403`
     * (and, past `max-wrong-secrets` from its address, `429`).
     */
    Optional<String> secret();

    /**
     * The largest request body accepted; a larger one is answered `413` without being read further.
     */
    @WithDefault("4M")
    MemorySize maxBodySize();

    /**
     * The most broadcasts one batch request (a JSON array) may carry; a longer batch is answered `413` and nothing
     * of it is broadcast.
     */
    @WithDefault("1000")
    int maxBatchLength();

    /**
     * How many wrong secrets one remote address may present in one `wrong-secret-window`. Past it, every request
     * from that address is answered `429` with `Retry-After` until its window ends, without its secret being
     * compared (the right one included), counted as `cable.limits.refusals{reason="wrong_secrets"}`. A request
     * without a secret (`401`) is not a wrong one. An IPv6 address counts with its /64 network.
     */
    @WithDefault("10")
    int maxWrongSecrets();

    /**
     * The window of `max-wrong-secrets`: it starts at an address's first wrong secret, and the address may try
     * again when it ends.
     */
    @WithDefault("1m")
    Duration wrongSecretWindow();
}
