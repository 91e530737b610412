package io.quarkiverse.cable.runtime.http;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The HTTP publish endpoint's settings are refused at startup, by the endpoint's recorder, when an enabled endpoint
 * could be guessed or could not work: the message names the property, the rule and the value, never the secret. The
 * values go through the real configuration mapping, defaults and converters included.
 */
class HttpBroadcastConfigTest {

    private static final String[] ENABLED = { "quarkus.cable.http-broadcast.enabled", "true",
            "quarkus.cable.http-broadcast.secret", "s3cret-sixteen!!" };

    @Test
    void aDisabledEndpointNeedsNothing() {
        HttpBroadcastRecorder.validate(config());
    }

    @Test
    void anEnabledEndpointNeedsASecret() {
        assertThatThrownBy(() -> HttpBroadcastRecorder.validate(config("quarkus.cable.http-broadcast.enabled", "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid configuration: quarkus.cable.http-broadcast.secret is required");
    }

    @Test
    void secretsAreAtLeast16BytesAndNeverPrinted() {
        assertThatThrownBy(() -> HttpBroadcastRecorder.validate(config("quarkus.cable.http-broadcast.enabled", "true",
                "quarkus.cable.http-broadcast.secret", "s3cret-fifteen!")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: quarkus.cable.http-broadcast.secret must be at least 16 bytes (a long"
                        + " random secret, e.g. openssl rand -base64 32), was 15 bytes")
                .hasMessageNotContaining("s3cret-fifteen!");
        HttpBroadcastRecorder.validate(config(ENABLED));
    }

    @Test
    void theWrongSecretThrottleNeedsAPositiveBudgetAndWindow() {
        assertThatThrownBy(() -> HttpBroadcastRecorder.validate(config(with("quarkus.cable.http-broadcast.max-wrong-secrets",
                "0")))).hasMessage("Invalid configuration: quarkus.cable.http-broadcast.max-wrong-secrets must be at"
                        + " least 1, was 0");
        assertThatThrownBy(() -> HttpBroadcastRecorder.validate(config(with(
                "quarkus.cable.http-broadcast.wrong-secret-window", "0s"))))
                .hasMessage("Invalid configuration: quarkus.cable.http-broadcast.wrong-secret-window must be a positive"
                        + " duration, was PT0S");
    }

    private static String[] with(String property, String value) {
        String[] all = java.util.Arrays.copyOf(ENABLED, ENABLED.length + 2);
        all[ENABLED.length] = property;
        all[ENABLED.length + 1] = value;
        return all;
    }

    private static CableHttpBroadcastConfig config(String... pairs) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDiscoveredConverters()
                .withMapping(CableHttpBroadcastConfig.class);
        for (int i = 0; i < pairs.length; i += 2) {
            builder.withDefaultValue(pairs[i], pairs[i + 1]);
        }
        return builder.build().getConfigMapping(CableHttpBroadcastConfig.class);
    }
}
