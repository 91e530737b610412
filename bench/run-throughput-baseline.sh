#!/usr/bin/env bash
# Broadcast throughput to commit of this checkout against a baseline commit, PostgreSQL and MariaDB, 1 and 5 threads,
# in interleaved rounds (baseline, current, baseline, current...) of the JMH BroadcastThroughput bench, so that load
# from other work on the machine falls on both sides alike.
#
#   bench/run-throughput-baseline.sh [baseline-commit]     default baseline: 31f2b2e^ (the last commit before
#                                                           recoverable streams, issue 10)
#
# Environment:
#   BENCH_ROUNDS (5)                  rounds; each runs every row (backend x threads) once per jar, 1 warm-up + 3
#                                     measured operations each
#   BENCH_BROADCASTS (100000)         broadcasts per operation
#   BENCH_BACKENDS (postgresql,mariadb), BENCH_THREADS (1,5)
#   BENCH_DB (cable_bench)            database name prefix: each side gets its own PostgreSQL and MariaDB database,
#                                     <prefix>_base and <prefix>_head, so a schema change between the commits cannot
#                                     interfere
#   BENCH_WORK (/tmp/cable-throughput-baseline)   where the baseline worktree, both jars and the raw results go
#   BENCH_SKIP_BUILD=1                reuse the jars already in BENCH_WORK/{base,head}
#   BENCH_JAVA_OPTS                   extra JVM options, e.g. -Djmh.ignoreLock=true when another JMH run holds /tmp/jmh.lock
#   BENCH_OUT (bench/results/throughput-baseline.md)
# Builds install quarkus-cable into the local Maven repository (the baseline first, this checkout last), so run it
# with a private repository (-Dmaven.repo.local in .mvn/maven.config) if other builds share the machine.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
BASE_REV="${1:-31f2b2e^}"
ROUNDS="${BENCH_ROUNDS:-5}"
BROADCASTS="${BENCH_BROADCASTS:-100000}"
BACKENDS="${BENCH_BACKENDS:-postgresql,mariadb}"
THREADS="${BENCH_THREADS:-1,5}"
WORK="${BENCH_WORK:-/tmp/cable-throughput-baseline}"
OUT="${BENCH_OUT:-bench/results/throughput-baseline.md}"
mkdir -p "$WORK/base" "$WORK/head" "$WORK/raw"

# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
ensure_services postgresql mariadb

BASE_SHA="$(git rev-parse --short "$BASE_REV")"
HEAD_SHA="$(git rev-parse --short HEAD)"

# --- build: one self-contained bench jar (jar + lib/) per side --------------------------------------------------
build_jar() { # checkout dir, destination dir
  (cd "$1" && ./mvnw -B -q -P '!it' install -DskipTests -pl runtime -am \
    && ./mvnw -B -q -f bench/pom.xml package -DskipTests)
  rm -rf "$2/lib" && cp -r "$1/bench/target/quarkus-cable-bench.jar" "$1/bench/target/lib" "$2/"
}
if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  rm -rf "$WORK/checkout"
  git worktree add --detach "$WORK/checkout" "$BASE_SHA" >/dev/null
  [ -f .mvn/maven.config ] && mkdir -p "$WORK/checkout/.mvn" && cp .mvn/maven.config "$WORK/checkout/.mvn/"
  # The bench needs ASM on its class path outside Quarkus (fixed after some baselines): take this checkout's bench
  # POM when the baseline's lacks it; the bench code itself stays the baseline's.
  grep -q '<artifactId>asm</artifactId>' "$WORK/checkout/bench/pom.xml" || cp bench/pom.xml "$WORK/checkout/bench/pom.xml"
  build_jar "$WORK/checkout" "$WORK/base"
  git worktree remove --force "$WORK/checkout"
  build_jar "$ROOT" "$WORK/head"
fi

# --- databases --------------------------------------------------------------------------------------------------
DB="${BENCH_DB:-cable_bench}"
for side in base head; do
  psql -q -h 127.0.0.1 -U postgres -tc "select 1 from pg_database where datname='${DB}_$side'" | grep -q 1 \
    || psql -q -h 127.0.0.1 -U postgres -c "create database ${DB}_$side"
  mariadb -uroot -h127.0.0.1 -e "create database if not exists ${DB}_$side"
done
pg_url() { echo "jdbc:postgresql://127.0.0.1:5432/${DB}_$1"; }
mariadb_url() { echo "jdbc:mariadb://127.0.0.1:3306/${DB}_$1"; }

# --- interleaved rounds -----------------------------------------------------------------------------------------
# Each round runs every backend x thread count once per side, the two sides back to back (which side goes first
# alternates by round), so the pairs compared are minutes apart at most, whatever else the machine does meanwhile.
STARTED="$(date -u +%FT%TZ)"
IFS=',' read -r -a BACKEND_LIST <<< "$BACKENDS"
IFS=',' read -r -a THREAD_LIST <<< "$THREADS"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then SIDES=(base head); else SIDES=(head base); fi
  for backend in "${BACKEND_LIST[@]}"; do
    for threads in "${THREAD_LIST[@]}"; do
      for side in "${SIDES[@]}"; do
        name="$side-$backend-$threads-$round"
        echo "round $round/$ROUNDS: $backend, $threads threads, $side"
        # shellcheck disable=SC2086
        "$JAVA_HOME/bin/java" ${BENCH_JAVA_OPTS:-} -Dbench.backends="$backend" -Dbench.threads="$threads" -Dbench.broadcasts="$BROADCASTS" \
          -Dbench.warmups=1 -Dbench.iterations=3 -Dbench.postgresql.url="$(pg_url $side)" \
          -Dbench.mariadb.url="$(mariadb_url $side)" -Dbench.out="$WORK/raw/$name.md" \
          -jar "$WORK/$side/quarkus-cable-bench.jar" > "$WORK/raw/$name.log" 2>&1 \
          || { echo "run failed, see $WORK/raw/$name.log" >&2; exit 1; }
      done
    done
  done
done

# --- report: medians of every measured operation, per side --------------------------------------------------------
python3 - "$WORK/raw" "$ROUNDS" "$BROADCASTS" "$BASE_SHA" "$HEAD_SHA" "$STARTED" "$OUT" "$BACKENDS" "$THREADS" <<'PY'
import json, statistics, sys, os, platform
raw, rounds, broadcasts, base, head, started, out, backends, threads = sys.argv[1:]
rounds, broadcasts = int(rounds), int(broadcasts)
failed = 0
def ops(side, backend, threads, r):
    global failed
    name = f"{raw}/{side}-{backend}-{threads}-{r}"
    failed += open(name + ".log").read().count("FAILURES:")
    values = []
    for bench in json.load(open(name + "-jmh.json")):
        for fork in bench["primaryMetric"]["rawData"]:
            values.extend(fork)
    return values
lines = [f"# Broadcast throughput: {head} against {base}", "",
         f"JMH `BroadcastThroughput`, {broadcasts:,} broadcasts per operation to commit, 1 warm-up + 3 measured operations per "
         f"JMH run; {rounds} rounds from {started}, each running every row once per side with the two sides back to back "
         "(alternating which goes first). Median op = median over all measured operations of a side; paired ratio = "
         "median over the rounds of (base mean op / head mean op) of the same round, above 1 when head is faster.", "",
         "| Backend | Threads | base median op (ms) | head median op (ms) | base broadcasts/s | head broadcasts/s | head / base (medians) | head / base (paired, median) | paired min-max |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for t in threads.split(","):
    for b in backends.split(","):
        allb, allh, ratios = [], [], []
        for r in range(1, rounds + 1):
            ob, oh = ops("base", b, t, r), ops("head", b, t, r)
            allb += ob; allh += oh
            ratios.append(statistics.mean(ob) / statistics.mean(oh))
        mb, mh = statistics.median(allb), statistics.median(allh)
        lines.append(f"| {b} | {t} | {mb:,.0f} | {mh:,.0f} | {broadcasts / mb * 1000:,.0f} | {broadcasts / mh * 1000:,.0f} | "
                     f"{mb / mh:.3f} | {statistics.median(ratios):.3f} | {min(ratios):.2f}-{max(ratios):.2f} |")
lines += ["", f"Runs that reported failed broadcasts: {failed} (expected 0).", "",
          f"Machine: nproc {os.cpu_count()}, {platform.system()} {platform.release()}; per-run JMH reports in {raw}."]
report = "\n".join(lines) + "\n"
open(out, "w").write(report)
print(report)
PY
