package io.quarkiverse.cable.runtime.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The origin decisions, like Rails' allowed_request_origins with allow_same_origin_as_host. */
class OriginPolicyTest {

    private final OriginPolicy defaults = new OriginPolicy(true, true, List.of(), true);

    @Test
    void sameOriginAsTheHostPasses() {
        assertThat(defaults.refusal("http://localhost:8080", "http", "localhost:8080")).isNull();
        assertThat(defaults.refusal("https://Shop.Example.com", "https", "shop.example.com:443")).isNull();
        assertThat(defaults.refusal("http://[::1]:8080", "http", "[::1]:8080")).isNull();
    }

    @Test
    void anyOtherOriginIsRefused() {
        assertThat(defaults.refusal("https://localhost:8080", "http", "localhost:8080")).contains("not allowed");
        assertThat(defaults.refusal("http://localhost:8081", "http", "localhost:8080")).contains("not allowed");
        assertThat(defaults.refusal("http://evil.example", "http", "localhost:8080")).contains("'http://evil.example'");
        assertThat(defaults.refusal("null", "http", "localhost:8080")).contains("names no host");
        assertThat(defaults.refusal("http://localhost:8080/path", "http", "localhost:8080")).isNotNull();
        assertThat(defaults.refusal("http://localhost:8080", "http", null)).as("no Host to compare with").isNotNull();
        assertThat(defaults.refusal("x".repeat(10_000), "http", "h")).hasSizeLessThan(400);
    }

    @Test
    void aMissingOriginFollowsTheSetting() {
        assertThat(defaults.refusal(null, "http", "localhost:8080")).isNull();
        assertThat(defaults.refusal("", "http", "localhost:8080")).isNull();
        assertThat(new OriginPolicy(true, true, List.of(), false).refusal(null, "http", "localhost"))
                .contains("allow-missing");
    }

    @Test
    void allowedOriginsAndSubdomains() {
        OriginPolicy policy = new OriginPolicy(true, false,
                List.of("https://app.example.com", "http://localhost:3000", "https://*.example.org"), true);
        assertThat(policy.refusal("https://app.example.com", "http", "api.internal")).isNull();
        assertThat(policy.refusal("https://app.example.com:443", "http", "api.internal")).isNull();
        assertThat(policy.refusal("http://localhost:3000", "http", "api.internal")).isNull();
        assertThat(policy.refusal("https://eu.example.org", "http", "api.internal")).isNull();
        assertThat(policy.refusal("https://a.b.example.org", "http", "api.internal")).isNull();
        assertThat(policy.refusal("https://example.org", "http", "api.internal")).isNotNull();
        assertThat(policy.refusal("https://evilexample.org", "http", "api.internal")).isNotNull();
        assertThat(policy.refusal("http://app.example.com", "http", "api.internal")).isNotNull();
        assertThat(policy.refusal("http://api.internal", "http", "api.internal"))
                .as("same origin switched off").isNotNull();
    }

    @Test
    void theOptOutAllowsEverything() {
        OriginPolicy off = new OriginPolicy(false, true, List.of(), false);
        assertThat(off.refusal("http://evil.example", "http", "localhost")).isNull();
        assertThat(off.refusal(null, "http", "localhost")).isNull();
    }

    @Test
    void badAllowedEntriesFailAtStartup() {
        assertThatThrownBy(() -> new OriginPolicy(true, true, List.of("app.example.com"), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("app.example.com");
        assertThatThrownBy(() -> new OriginPolicy(true, true, List.of("https://a.com/path"), true))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
