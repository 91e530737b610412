package io.quarkiverse.cable.runtime.actioncable;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;

/**
 * The {@link TurboStreams} bean, signing with {@code quarkus.cable.turbo.signing-key} and also verifying with
 * {@code quarkus.cable.turbo.previous-signing-keys} (their lengths were checked by {@code CableConfigCheck}).
 */
@Singleton
public class TurboStreamsProducer {

    @Produces
    @Singleton
    TurboStreams turboStreams(CableRuntimeConfig config, Cable cable) {
        byte[] key = config.turbo().signingKey().map(text -> text.getBytes(StandardCharsets.UTF_8)).orElse(null);
        List<byte[]> previous = config.turbo().previousSigningKeys().orElse(List.of()).stream()
                .map(text -> text.getBytes(StandardCharsets.UTF_8)).toList();
        return new SignedTurboStreams(key, previous, cable);
    }
}
