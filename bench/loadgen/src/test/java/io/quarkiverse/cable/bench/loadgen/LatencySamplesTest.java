package io.quarkiverse.cable.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LatencySamplesTest {

    @Test
    void interpolatesBetweenTheClosestRanksAsK6Does() {
        LatencySamples samples = new LatencySamples();
        for (int value : new int[] { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 }) { // 1..10, shuffled
            samples.add(value);
        }

        LatencySummary summary = samples.summary();

        assertThat(summary.count()).isEqualTo(10);
        assertThat(summary.mean()).isCloseTo(5.5, within(1e-9));
        assertThat(summary.p50()).isCloseTo(5.5, within(1e-9)); // rank 4.5: halfway between 5 and 6
        assertThat(summary.p95()).isCloseTo(9.55, within(1e-9)); // rank 8.55
        assertThat(summary.p99()).isCloseTo(9.91, within(1e-9)); // rank 8.91
        assertThat(summary.max()).isEqualTo(10);
    }

    @Test
    void aRankOnASampleGivesThatSample() {
        double[] sorted = { 10, 20, 30, 40, 50 };

        assertThat(LatencySamples.percentile(sorted, 0.5)).isEqualTo(30);
        assertThat(LatencySamples.percentile(sorted, 0.75)).isEqualTo(40);
        assertThat(LatencySamples.percentile(sorted, 1.0)).isEqualTo(50);
    }

    @Test
    void oneSampleIsEveryPercentileAndNoneGivesZeros() {
        LatencySamples one = new LatencySamples();
        one.add(42.5);

        assertThat(one.summary()).isEqualTo(new LatencySummary(1, 42.5, 42.5, 42.5, 42.5, 42.5));
        assertThat(new LatencySamples().summary()).isEqualTo(LatencySummary.EMPTY);
    }

    @Test
    void keepsEverySampleBeyondTheInitialCapacity() {
        LatencySamples samples = new LatencySamples();
        for (int i = 1; i <= 100_000; i++) {
            samples.add(i);
        }

        LatencySummary summary = samples.summary();

        assertThat(summary.count()).isEqualTo(100_000);
        assertThat(summary.p99()).isCloseTo(99_000.01, within(1e-6));
    }
}
