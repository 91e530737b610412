package io.quarkiverse.cable.bench.loadgen;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The k6 scenarios of Solid Cable's load script that this generator reproduces (its {@code ramp} is left out). */
enum ScenarioKind {
    STEADY,
    STORM,
    CHURN,
    FANOUT;

    /** The name used on the command line, in run files and in the k6 script ({@code workload} tag). */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static ScenarioKind parse(String label) throws UsageException {
        for (ScenarioKind kind : values()) {
            if (kind.label().equals(label)) {
                return kind;
            }
        }
        throw new UsageException("--scenario must be one of "
                + Arrays.stream(values()).map(ScenarioKind::label).collect(Collectors.joining("|")) + ", got '" + label
                + "'");
    }
}
