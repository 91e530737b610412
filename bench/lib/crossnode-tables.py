#!/usr/bin/env python3
"""Cross-node tables of a multi-node matrix (bench/run-matrix.sh --multi-node): for every backend and run, the
single-node and cross-node (<backend>-2n) latency percentiles side by side, cross-node p95 / single-node p95, and
cross-node p95 / redis-2n p95; plus the database load per run from raw/dbload.csv. Usage:
    bench/lib/crossnode-tables.py <results dir>   (reads results.csv and raw/dbload.csv, prints AsciiDoc tables)"""
import csv
import sys
from pathlib import Path

out = Path(sys.argv[1])
rows = list(csv.DictReader(open(out / "results.csv")))


def key(row):
    rate = row["fanoutRate"] or ""
    family = row["scenario"] + (" " + rate + "/s" if rate else "")
    return family, int(row["users"])


def lat(row):
    prefix = "rtt" if row["scenario"] == "steady" else "latency"
    return tuple(float(row[prefix + p] or "nan") for p in ("P50", "P95", "P99"))


cells = {}
for row in rows:
    cells[(row["backend"],) + key(row)] = row

bases = []
for row in rows:
    base = row["backend"][:-3] if row["backend"].endswith("-2n") else row["backend"]
    if base not in bases:
        bases.append(base)

print('[%header,cols="2,1,1,2,2,1,1,1"]')
print("|===")
print("| Backend | Run | Users | 1 node p50 / p95 / p99 (ms) | 2 nodes p50 / p95 / p99 (ms) | 2 nodes ÷ 1 node (p95)"
      " | 2 nodes ÷ redis-2n (p95) | Failures, gaps, dups, reorders")
families = sorted({key(r) for r in rows}, key=lambda k: (k[0], k[1]))
for family, users in families:
    for base in bases:
        single = cells.get((base, family, users))
        cross = cells.get((base + "-2n", family, users))
        redis = cells.get(("redis-2n", family, users))
        if cross is None:
            continue
        fmt = lambda r: " / ".join(f"{v:.1f}" for v in lat(r)) if r else "n/a"
        ratio = f"{lat(cross)[1] / lat(single)[1]:.2f}x" if single else "n/a"
        to_redis = f"{lat(cross)[1] / lat(redis)[1]:.2f}x" if redis else "n/a"
        bad = sum(int(cross[c] or 0) for c in ("connectionFailures", "subscriptionFailures", "roundTripsFailed", "gaps",
                                                "duplicates", "outOfOrder", "invalidMessages"))
        print(f"| {base} | {family} | {users} | {fmt(single)} | {fmt(cross)} | {ratio} | {to_redis} | {bad}")
print("|===")

load = out / "raw" / "dbload.csv"
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
