#!/usr/bin/env python3
"""Cross-node tables of a multi-node matrix (bench/run-matrix.sh --multi-node): for every backend and run, the
single-node and cross-node (<backend>-2n) latency percentiles side by side, cross-node p95 / single-node p95, and
cross-node p95 / redis-2n p95; in steady also cross-node p95 / the "one node, paired" run's p95 (<backend>-1p: the
same two connections per user, both on one node), which leaves out what the shape costs; plus the database load per
run from raw/dbload.csv. Usage:
    bench/lib/crossnode-tables.py <results dir>   (reads results.csv and raw/dbload.csv, prints AsciiDoc tables)
    bench/lib/crossnode-tables.py <dir> <dir> <dir> ...
        several rounds of the same matrix (BENCH_OUT per round): per cell the median of each percentile over the
        rounds that ran it, the ratios of each round (each to its own single-node and redis-2n runs) and their
        median; the database load table of the first round."""
import csv
import statistics
import sys
from pathlib import Path

FAILURES = ("connectionFailures", "subscriptionFailures", "roundTripsFailed", "gaps", "duplicates", "outOfOrder",
            "invalidMessages")


def key(row):
    rate = row["fanoutRate"] or ""
    family = row["scenario"] + (" " + rate + "/s" if rate else "")
    return family, int(row["users"])


def lat(row):
    prefix = "rtt" if row["scenario"] == "steady" else "latency"
    return tuple(float(row[prefix + p] or "nan") for p in ("P50", "P95", "P99"))


def base_of(backend):
    return backend[:-3] if backend.endswith(("-2n", "-1p")) else backend


def load_round(directory):
    rows = list(csv.DictReader(open(Path(directory) / "results.csv")))
    return rows, {(row["backend"],) + key(row): row for row in rows}


def percentiles(values):
    return " / ".join(f"{v:.1f}" for v in values) if values else "n/a"


rounds = [load_round(d) for d in sys.argv[1:]]
bases, families = [], set()
for rows, _ in rounds:
    for row in rows:
        if base_of(row["backend"]) not in bases:
            bases.append(base_of(row["backend"]))
        families.add(key(row))
families = sorted(families)

if len(rounds) == 1:
    cells = rounds[0][1]
    print('[%header,cols="2,1,1,2,2,1,1,1,1"]')
    print("|===")
    print("| Backend | Run | Users | 1 node p50 / p95 / p99 (ms) | 2 nodes p50 / p95 / p99 (ms) | 2 nodes ÷ 1 node (p95)"
          " | 2 nodes ÷ 1 node paired (p95) | 2 nodes ÷ redis-2n (p95) | Failures, gaps, dups, reorders")
    for family, users in families:
        for base in bases:
            single = cells.get((base, family, users))
            cross = cells.get((base + "-2n", family, users))
            redis = cells.get(("redis-2n", family, users))
            paired = cells.get((base + "-1p", family, users))
            if cross is None:
                continue
            ratio = f"{lat(cross)[1] / lat(single)[1]:.2f}x" if single else "n/a"
            to_paired = f"{lat(cross)[1] / lat(paired)[1]:.2f}x" if paired else "n/a"
            to_redis = f"{lat(cross)[1] / lat(redis)[1]:.2f}x" if redis else "n/a"
            bad = sum(int(row[c] or 0) for row in (cross, single, paired) if row for c in FAILURES)
            print(f"| {base} | {family} | {users} | {percentiles(lat(single) if single else None)} | "
                  f"{percentiles(lat(cross))} | {ratio} | {to_paired} | {to_redis} | {bad}")
    print("|===")
else:
    print('[%header,cols="2,1,1,1,2,2,2,2,2,1"]')
    print("|===")
    print("| Backend | Run | Users | Rounds | 1 node p50 / p95 / p99 (ms), median | 2 nodes p50 / p95 / p99 (ms), median"
          " | 2 nodes ÷ 1 node (p95) per round -> median | 2 nodes ÷ 1 node paired (p95) per round -> median"
          " | 2 nodes ÷ redis-2n (p95) per round -> median | Failures, gaps, dups, reorders")
    for family, users in families:
        for base in bases:
            singles, crosses, ratios, to_paired, to_redis, bad = [], [], [], [], [], 0
            for _, cells in rounds:
                single = cells.get((base, family, users))
                cross = cells.get((base + "-2n", family, users))
                redis = cells.get(("redis-2n", family, users))
                paired = cells.get((base + "-1p", family, users))
                if cross is None:
                    continue
                crosses.append(lat(cross))
                bad += sum(int(cross[c] or 0) for c in FAILURES)
                if paired:
                    bad += sum(int(paired[c] or 0) for c in FAILURES)
                    to_paired.append(lat(cross)[1] / lat(paired)[1])
                if single:
                    singles.append(lat(single))
                    bad += sum(int(single[c] or 0) for c in FAILURES)
                    ratios.append(lat(cross)[1] / lat(single)[1])
                if redis:
                    to_redis.append(lat(cross)[1] / lat(redis)[1])
            if not crosses:
                continue
            median = lambda samples: [statistics.median(s[i] for s in samples) for i in range(3)] if samples else None
            listed = lambda values: (", ".join(f"{v:.2f}" for v in values) + f" -> *{statistics.median(values):.2f}x*"
                                     if values else "n/a")
            print(f"| {base} | {family} | {users} | {len(crosses)} | {percentiles(median(singles))} | "
                  f"{percentiles(median(crosses))} | {listed(ratios)} | {listed(to_paired)} | {listed(to_redis)} | {bad}")
    print("|===")

load = Path(sys.argv[1]) / "raw" / "dbload.csv"
if load.exists():
    print()
    print('[%header,cols="3,1,1,1"]')
    print("|===")
    print("| Run | Seconds | Queries/s (MariaDB `Questions`) or transactions/s (PostgreSQL) | Database server CPU (% of one core)")
    lines = list(csv.reader(open(load)))
    tick = 100.0
    for run, seconds, statements, ticks in lines[1:]:
        s = float(seconds)
        print(f"| {run} | {s:.0f} | {int(statements) / s:.0f} | {int(ticks) / tick / s * 100:.1f}")
    print("|===")
