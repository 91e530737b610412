package io.quarkiverse.cable.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RunOptionsTest {

    private static final String[] REQUIRED = { "run", "--url", "ws://127.0.0.1:8090/cable", "--backend", "redis",
            "--scenario", "churn", "--users", "250", "--out", "out.json" };

    @Test
    void defaultsAreTheK6Scripts() throws UsageException {
        RunOptions.Parameters p = RunOptions.parse(new Arguments(REQUIRED, 1)).parameters();

        assertThat(p.time()).isEqualTo(90);
        assertThat(p.num()).isEqualTo(5);
        assertThat(p.payloadBytes()).isEqualTo(64);
        assertThat(p.receiveTimeoutMs()).isEqualTo(60_000);
        assertThat(p.handshakeTimeoutS()).isEqualTo(60);
        assertThat(p.minSleepMs()).isEqualTo(500);
        assertThat(p.maxSleepMs()).isEqualTo(1000);
        assertThat(p.churnUsers()).isEqualTo(50); // users / 5
        assertThat(p.churnTime()).isEqualTo(90);
        assertThat(p.stormRounds()).isEqualTo(5);
        assertThat(p.stormSleepMs()).isEqualTo(100);
        assertThat(p.stormMaxDurationS()).isEqualTo(65); // max(max(15, 90 / 3), 60 + 5)
        assertThat(p.fanoutRate()).isEqualTo(10);
        assertThat(p.fanoutTime()).isEqualTo(90);
        assertThat(p.fanoutWarmup()).isEqualTo(15);
        assertThat(p.fanoutDrain()).isEqualTo(10);
        assertThat(p.gracefulStopS()).isEqualTo(30);
        assertThat(p.testId()).isEqualTo("redis");
        assertThat(p.fanoutStream()).isEqualTo("redis-fanout");
    }

    @Test
    void derivedDefaultsFollowTheOptionsTheyDependOn() throws UsageException {
        RunOptions options = RunOptions.parse(new Arguments(with("--users", "3", "--time", "300",
                "--handshake-timeout-s", "10", "--test-id", "t1"), 1));

        assertThat(options.parameters().churnUsers()).isEqualTo(1); // never below one
        assertThat(options.parameters().churnTime()).isEqualTo(300);
        assertThat(options.parameters().stormMaxDurationS()).isEqualTo(100); // time / 3 wins over handshake + 5
        assertThat(options.parameters().fanoutStream()).isEqualTo("t1-fanout");
        assertThat(options.virtualUsers()).isEqualTo(1);
    }

    @Test
    void rejectsWhatItCannotRun() {
        assertThatThrownBy(() -> RunOptions.parse(new Arguments(with("--usres", "10"), 1)))
                .isInstanceOf(UsageException.class).hasMessageContaining("--usres");
        assertThatThrownBy(() -> RunOptions.parse(new Arguments(with("--scenario", "ramp"), 1)))
                .isInstanceOf(UsageException.class).hasMessageContaining("steady|storm|churn|fanout");
        assertThatThrownBy(() -> RunOptions.parse(new Arguments(with("--url", "http://localhost/cable"), 1)))
                .isInstanceOf(UsageException.class).hasMessageContaining("ws://");
        assertThatThrownBy(() -> RunOptions.parse(new Arguments(with("--num", "0"), 1)))
                .isInstanceOf(UsageException.class).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new Arguments(new String[] { "run", "--users" }, 1))
                .isInstanceOf(UsageException.class).hasMessageContaining("needs a value");
    }

    /** The required options with some replaced or added. */
    private static String[] with(String... overrides) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < REQUIRED.length; i += 2) {
            options.put(REQUIRED[i], REQUIRED[i + 1]);
        }
        for (int i = 0; i < overrides.length; i += 2) {
            options.put(overrides[i], overrides[i + 1]);
        }
        List<String> args = new ArrayList<>(List.of("run"));
        options.forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        return args.toArray(String[]::new);
    }
}
