package io.quarkiverse.cable.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.frontend.ClientAddress;
import io.vertx.core.net.SocketAddress;

/** The throttle's bookkeeping, on a clock the test moves: tries per window, its end, the bound on addresses. */
class WrongSecretsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void anAddressIsThrottledPastItsTriesUntilItsWindowEnds() {
        WrongSecrets secrets = new WrongSecrets(3, Duration.ofSeconds(60), 16);
        long start = 1_000 * SECOND;
        for (int i = 0; i < 3; i++) {
            assertThat(secrets.throttledFor("10.0.0.1", start + i * SECOND)).isZero();
            secrets.wrong("10.0.0.1", start + i * SECOND);
        }
        assertThat(secrets.throttledFor("10.0.0.1", start + 3 * SECOND)).isEqualTo(57 * SECOND);
        assertThat(secrets.throttledFor("10.0.0.2", start + 3 * SECOND)).as("another address").isZero();
        // The window started at the first wrong secret: it ends 60 s later, and the address has 3 new tries.
        assertThat(secrets.throttledFor("10.0.0.1", start + 60 * SECOND - 1)).isEqualTo(1);
        assertThat(secrets.throttledFor("10.0.0.1", start + 60 * SECOND)).isZero();
        assertThat(secrets.tracked()).isZero();
        secrets.wrong("10.0.0.1", start + 61 * SECOND);
        assertThat(secrets.throttledFor("10.0.0.1", start + 61 * SECOND)).isZero();
    }

    @Test
    void theAddressesTrackedAreBoundedAndTheFirstWindowToEndMakesRoom() {
        WrongSecrets secrets = new WrongSecrets(1, Duration.ofSeconds(60), 4);
        for (int i = 0; i < 10; i++) {
            secrets.wrong("10.0.0." + i, i * SECOND);
            assertThat(secrets.tracked()).isLessThanOrEqualTo(4);
        }
        // The four latest are tracked and throttled; the earlier ones were replaced, the earliest windows first.
        for (int i = 6; i < 10; i++) {
            assertThat(secrets.throttledFor("10.0.0." + i, 10 * SECOND)).isPositive();
        }
        assertThat(secrets.throttledFor("10.0.0.5", 10 * SECOND)).isZero();
    }

    @Test
    void anIpv6AddressCountsWithItsNetworkAndOtherTextIsItsOwnKey() {
        assertThat(ClientAddress.key(SocketAddress.inetSocketAddress(80, "2001:db8:1:2:aaaa::1")))
                .isEqualTo(ClientAddress.key(SocketAddress.inetSocketAddress(80, "2001:db8:1:2:bbbb::9")))
                .isEqualTo("20010db800010002::/64");
        assertThat(ClientAddress.key(SocketAddress.inetSocketAddress(80, "2001:db8:1:3::1")))
                .isEqualTo("20010db800010003::/64");
        assertThat(ClientAddress.key(SocketAddress.inetSocketAddress(80, "127.0.0.2"))).isEqualTo("127.0.0.2");
        assertThat(ClientAddress.key(SocketAddress.inetSocketAddress(80, "_hidden"))).isEqualTo("_hidden");
        assertThat(ClientAddress.key(null)).isEqualTo("unknown");
    }
}
