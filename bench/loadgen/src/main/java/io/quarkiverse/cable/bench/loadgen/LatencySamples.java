package io.quarkiverse.cable.bench.loadgen;

import java.util.Arrays;

/**
 * Every sample of one duration, kept exactly (a few hundred thousand doubles at most in these runs), so percentiles
 * are computed the way k6 computes a Trend's: sort, then interpolate linearly between the two closest ranks. The
 * figures are then comparable with the recorded Solid Cable k6 results. Samples arrive from several event loops.
 */
final class LatencySamples {

    private double[] values = new double[1024];
    private int count;

    synchronized void add(double millis) {
        if (count == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[count++] = millis;
    }

    synchronized LatencySummary summary() {
        if (count == 0) {
            return LatencySummary.EMPTY;
        }
        double[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        double sum = 0;
        for (double value : sorted) {
            sum += value;
        }
        return new LatencySummary(count, sum / count, percentile(sorted, 0.50), percentile(sorted, 0.95),
                percentile(sorted, 0.99), sorted[count - 1]);
    }

    /** k6's {@code TrendSink.P}: rank {@code fraction * (n - 1)}, linear between its floor and ceiling. */
    static double percentile(double[] sorted, double fraction) {
        double rank = fraction * (sorted.length - 1);
        double lower = sorted[(int) Math.floor(rank)];
        double upper = sorted[(int) Math.ceil(rank)];
        return lower + (upper - lower) * (rank - Math.floor(rank));
    }
}
