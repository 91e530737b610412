#!/usr/bin/env bash
# Interleaved before/after: the same load generator, cases and database against two builds of the bench server,
# taking turns (before, after, before, after, ...), so that a shared machine's drift falls on both alike. For a
# change that should cost nothing (a restructuring), the after/before ratios should stay within the rounds' spread.
#
#   git worktree add /tmp/before <commit> && (cd /tmp/before && ./mvnw -B -q -P '!it' install -DskipTests \
#     -Dmaven.repo.local=/tmp/m2-before && MAVEN_ARGS=-Dmaven.repo.local=/tmp/m2-before bench/server/build.sh postgresql)
#   BEFORE=/tmp/before bench/run-before-after.sh        (this checkout's server built as well: bench/server/build.sh)
#
# Environment:
#   BEFORE            the checkout of the code before the change, its bench server built (required)
#   AFTER             the checkout of the code after it, its bench server built (default: this checkout); to bisect
#                     a difference between two older commits with this checkout's load generator
#   ROUNDS            turns per side (default 2)
#   BENCH_BACKENDS    one cable backend (default cable-postgresql)
#   BENCH_RUNS        the matrix cases (default: steady at 1,000 users, storm of 1,000, fan-out to 750 at 10/s)
#   BENCH_CONNECTIONS connections held in the connections case (default 10000: heap per connection, fan-out at
#                     1/s to all of them, a storm of all of them); 0 skips it
#   BENCH_OUT         where results go (default bench/results/before-after): one directory per round and side, and
#                     summary.md
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
BEFORE="${BEFORE:?set BEFORE to a checkout of the code before the change, with its bench server built}"
BEFORE="$(cd "$BEFORE" && pwd)"
AFTER="$(cd "${AFTER:-$ROOT}" && pwd)"
ROUNDS="${ROUNDS:-2}"
BACKEND="${BENCH_BACKENDS:-cable-postgresql}"
RUNS="${BENCH_RUNS:-steady|1000|--time 30;storm|1000|;fanout|750|--fanout-rate 10 --fanout-time 15 --fanout-warmup 5 --fanout-drain 4}"
HELD="${BENCH_CONNECTIONS:-10000}"
OUT="${BENCH_OUT:-bench/results/before-after}"
flavour="${BACKEND#cable-}"

for home in "$BEFORE" "$AFTER"; do
  if [ ! -f "$home/bench/server/target/$flavour/quarkus-app/quarkus-run.jar" ]; then
    echo "No bench server in $home: run bench/server/build.sh $flavour there first" >&2
    exit 2
  fi
done
if [ ! -f bench/loadgen/target/quarkus-cable-bench-loadgen.jar ]; then
  ./mvnw -B -q -f bench/loadgen/pom.xml package -DskipTests
fi

rm -rf "$OUT"
mkdir -p "$OUT"
for round in $(seq 1 "$ROUNDS"); do
  for side in before after; do
    home="$AFTER"
    [ "$side" = before ] && home="$BEFORE"
    echo "=== round $round, $side ($(git -C "$home" rev-parse --short HEAD))"
    BENCH_SKIP_BUILD=1 BENCH_SERVER_HOME="$home" BENCH_BACKENDS="$BACKEND" BENCH_RUNS="$RUNS" \
      BENCH_OUT="$OUT/$round-$side-matrix" bench/run-matrix.sh
    if [ "$HELD" != 0 ]; then
      BENCH_SKIP_BUILD=1 BENCH_SERVER_HOME="$home" BENCH_BACKENDS="$BACKEND" BENCH_CONNECTIONS="$HELD" \
        BENCH_OUT="$OUT/$round-$side-connections" bench/run-matrix.sh --connections
    fi
  done
done

# One line per case and figure: each round's before and after, and after/before of the rounds' means.
summary="$OUT/summary.md"
{
  echo "# Before/after, interleaved"
  echo
  echo "Before: $(git -C "$BEFORE" log -1 --format='%h %s' | cut -c1-100). After: $(git -C "$AFTER" log -1 --format='%h %s' | cut -c1-100)."
  echo "$ROUNDS rounds on $BACKEND, $(nproc) cores; command: BEFORE=... bench/run-before-after.sh"
  echo
  header="| case | figure |"
  rule="|---|---|"
  for round in $(seq 1 "$ROUNDS"); do header="$header before $round | after $round |"; rule="$rule---|---|"; done
  echo "$header after/before |"
  echo "$rule---|"
  for csv in "$OUT"/1-before-*/results.csv; do
    kind="$(basename "$(dirname "$csv")")"
    kind="${kind#1-before-}"
    awk -F, -v rounds="$ROUNDS" -v out="$OUT" -v kind="$kind" '
      function figures(scenario) {
        if (scenario == "steady") return "rttP95 rttP99 messagesPerSecond";
        if (scenario == "storm") return "totalTimeMs connectP95";
        if (scenario == "fanout") return "latencyP95 latencyP99 heapBytesPerConnection gaps duplicates outOfOrder";
        return "";
      }
      BEGIN {
        for (round = 1; round <= rounds; round++) {
          split("before after", sides, " ");
          for (s = 1; s <= 2; s++) {
            file = out "/" round "-" sides[s] "-" kind "/results.csv";
            line = 0;
            while ((getline row < file) > 0) {
              n = split(row, cells, ",");
              if (line++ == 0) { for (i = 1; i <= n; i++) column[i] = cells[i]; continue; }
              key = cells[3] " " cells[4];
              if (!(key in seen)) { seen[key] = 1; keys[++count] = key; }
              for (i = 1; i <= n; i++) value[key, column[i], round, sides[s]] = cells[i];
            }
            close(file);
          }
        }
        for (k = 1; k <= count; k++) {
          split(keys[k], parts, " ");
          m = split(figures(parts[1]), names, " ");
          for (f = 1; f <= m; f++) {
            name = names[f];
            if (value[keys[k], name, 1, "before"] == "") continue;
            printf "| %s %s (%s) | %s |", parts[1], parts[2], kind, name;
            sum_before = 0; sum_after = 0;
            for (round = 1; round <= rounds; round++) {
              b = value[keys[k], name, round, "before"]; a = value[keys[k], name, round, "after"];
              printf " %s | %s |", b, a;
              sum_before += b; sum_after += a;
            }
            if (sum_before > 0) printf " %.2f |\n", sum_after / sum_before; else printf " - |\n";
          }
        }
      }' /dev/null
  done
} > "$summary"
cat "$summary"
