#!/usr/bin/env bash
# The load matrix: Solid Cable's k6 workloads (steady, storm, fanout; churn in smoke mode) against every backend,
# one server at a time, with the Java load generator in a separate process. Writes raw JSON per run, a CSV, a
# markdown table with ratios to the Redis baseline of the same run, and PNG charts.
#
#   bench/run-matrix.sh            full matrix (about 35 minutes on 2 cores, 15 s of warm-up per server) -> bench/results/matrix/
#   bench/run-matrix.sh --smoke    tiny matrix (about 2 minutes, run by .ci/run) -> bench/results/matrix-smoke/
#
# Environment:
#   BENCH_BACKENDS    comma list of backends (default: all for the full matrix, memory,redis,cable-postgresql in
#                     smoke): memory, redis, pgnotify (memory adapter + a baseline relay), cable-h2,
#                     cable-postgresql, cable-mariadb (the cable on that database)
#   BENCH_TIME        seconds of steady load (full default 30; k6's default is 90)
#   BENCH_FANOUT_TIME seconds of fan-out publishing (full default 15; k6's default is 90)
#   BENCH_PIN         1 (default) pins the server to CPU 0 and the load generator to CPU 1; 0 lets them float.
#                     The databases and Redis always float.
#   BENCH_OUT         where results go (default bench/results/matrix, or matrix-smoke)
#   BENCH_SKIP_BUILD  1 to reuse the jars already built
#   BENCH_PROFILE     1 records a JFR profile of each server (raw/server-<backend>.jfr) and writes its hottest
#                     methods to raw/hot-methods-<backend>.txt (jfr view hot-methods)
#   BENCH_SERVER_OPTS / BENCH_LOADGEN_OPTS  extra JVM options
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
SMOKE=0
for arg in "$@"; do
  case "$arg" in
    --smoke) SMOKE=1 ;;
    *) echo "unknown argument: $arg (use --smoke)" >&2; exit 2 ;;
  esac
done

PORT=8090
URL="ws://127.0.0.1:$PORT/cable"
PIN="${BENCH_PIN:-1}"
if [ "$SMOKE" = "1" ]; then
  BACKENDS="${BENCH_BACKENDS:-memory,redis,cable-postgresql}"
  TIME="${BENCH_TIME:-4}"
  FANOUT_TIME="${BENCH_FANOUT_TIME:-4}"
  OUT="${BENCH_OUT:-bench/results/matrix-smoke}"
  WARMUP=""
  # scenario|users|extra options
  RUNS=(
    "steady|20|--time $TIME"
    "churn|10|--churn-users 10 --churn-time $TIME"
    "storm|20|--storm-rounds 3"
    "fanout|20|--fanout-rate 10 --fanout-time $FANOUT_TIME --fanout-warmup 2 --fanout-drain 3"
  )
else
  BACKENDS="${BENCH_BACKENDS:-redis,pgnotify,memory,cable-h2,cable-postgresql,cable-mariadb}"
  TIME="${BENCH_TIME:-30}"
  FANOUT_TIME="${BENCH_FANOUT_TIME:-15}"
  OUT="${BENCH_OUT:-bench/results/matrix}"
  # Each server first gets 15 s of steady load that is not reported, so the first measured run does not pay for the
  # JIT compiling the server's hot paths (that run showed p95 RTTs 30x those of the next one).
  WARMUP="steady|100|--time 15 --graceful-stop-s 10"
  RUNS=()
  for users in 250 500 750 1000; do RUNS+=("steady|$users|--time $TIME"); done
  for users in 250 500 1000; do RUNS+=("storm|$users|"); done
  for rate in 7 10; do
    for users in 250 500 750; do
      RUNS+=("fanout|$users|--fanout-rate $rate --fanout-time $FANOUT_TIME --fanout-warmup 5 --fanout-drain 4")
    done
  done
fi
RAW="$OUT/raw"

# --- services (localhost only) ------------------------------------------------------------------------------------
# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
needs=()
case ",$BACKENDS," in *,redis,*) needs+=(redis) ;; esac
case ",$BACKENDS," in *,pgnotify,*|*,cable-postgresql,*) needs+=(postgresql) ;; esac
case ",$BACKENDS," in *,cable-mariadb,*) needs+=(mariadb) ;; esac
ensure_services "${needs[@]}"
if [[ " ${needs[*]} " == *" postgresql "* ]]; then
  psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = 'cable_bench'" | grep -q 1 \
    || psql -q -h 127.0.0.1 -U postgres -c "create database cable_bench"
fi

flavour_of() { # backend -> server build flavour
  case "$1" in
    memory|redis|pgnotify) echo memory ;;
    cable-h2) echo h2 ;;
    cable-postgresql) echo postgresql ;;
    cable-mariadb) echo mariadb ;;
    *) echo "unknown backend $1" >&2; return 2 ;;
  esac
}
relay_of() { # backend -> bench.relay
  case "$1" in
    redis|pgnotify) echo "$1" ;;
    *) echo cable ;;
  esac
}

# --- build --------------------------------------------------------------------------------------------------------
IFS=',' read -r -a BACKEND_LIST <<< "$BACKENDS"
FLAVOURS=()
for backend in "${BACKEND_LIST[@]}"; do
  flavour="$(flavour_of "$backend")"
  [[ " ${FLAVOURS[*]} " == *" $flavour "* ]] || FLAVOURS+=("$flavour")
done
if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests
  bench/server/build.sh "${FLAVOURS[@]}"
  ./mvnw -B -q -f bench/loadgen/pom.xml package -DskipTests
fi
LOADGEN=bench/loadgen/target/quarkus-cable-bench-loadgen.jar

# --- run ----------------------------------------------------------------------------------------------------------
rm -rf "$RAW" "$OUT/warmup"
mkdir -p "$RAW"
if [ "$PIN" = "1" ] && [ "$(nproc)" -ge 2 ]; then
  SERVER_PIN=(taskset -c 0)
  LOADGEN_PIN=(taskset -c 1)
  PINNING="server pinned to CPU 0, load generator to CPU 1, databases and Redis unpinned"
else
  SERVER_PIN=()
  LOADGEN_PIN=()
  PINNING="no CPU pinning"
fi
SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT

reset_database() { # each backend starts on empty cable tables
  case "$1" in
    cable-postgresql)
      psql -q -h 127.0.0.1 -U postgres -d cable_bench \
        -c "drop table if exists cable_messages, cable_channels, cable_shards, cable_writers" ;;
    cable-mariadb)
      mariadb -uroot -h127.0.0.1 -e "create database if not exists cable_bench;
        drop table if exists cable_bench.cable_messages, cable_bench.cable_channels, cable_bench.cable_shards,
        cable_bench.cable_writers" ;;
  esac
}

start_server() { # backend
  local backend="$1" flavour profiling=()
  flavour="$(flavour_of "$backend")"
  reset_database "$backend"
  if [ "${BENCH_PROFILE:-0}" = "1" ]; then
    profiling=("-XX:StartFlightRecording=filename=$RAW/server-$backend.jfr,settings=profile,dumponexit=true")
  fi
  # shellcheck disable=SC2086
  "${SERVER_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow "${profiling[@]}" ${BENCH_SERVER_OPTS:-} -Dquarkus.profile="$flavour" \
    -Dquarkus.http.port=$PORT \
    -Dbench.relay="$(relay_of "$backend")" -jar "bench/server/target/$flavour/quarkus-app/quarkus-run.jar" \
    > "$RAW/server-$backend.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 120); do
    if curl -fs "http://127.0.0.1:$PORT/bench/info" > "$RAW/server-$backend.info" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
    sleep 0.5
  done
  echo "The $backend server did not start; its log:" >&2
  tail -50 "$RAW/server-$backend.log" >&2
  return 1
}

run_load() { # backend, "scenario|users|options", run file
  local backend="$1" scenario users options
  IFS='|' read -r scenario users options <<< "$2"
  # shellcheck disable=SC2086
  "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow ${BENCH_LOADGEN_OPTS:-} -jar "$LOADGEN" run \
    --url "$URL" --backend "$backend" --scenario "$scenario" --users "$users" --out "$3" $options
}

STARTED=$(date +%s)
for backend in "${BACKEND_LIST[@]}"; do
  echo "== $backend"
  start_server "$backend"
  if [ -n "$WARMUP" ]; then
    run_load "$backend" "$WARMUP" "$OUT/warmup/$backend.json" > /dev/null
  fi
  for run in "${RUNS[@]}"; do
    IFS='|' read -r scenario users options <<< "$run"
    tag="$(echo "$options" | grep -o -- '--fanout-rate [0-9]*' | tr -dc '0-9' || true)"
    run_load "$backend" "$run" "$RAW/$backend-$scenario-$users${tag:+-r$tag}.json"
  done
  stop_server
  if [ -f "$RAW/server-$backend.jfr" ]; then
    "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$RAW/server-$backend.jfr" > "$RAW/hot-methods-$backend.txt" || true
  fi
done
ELAPSED=$(( $(date +%s) - STARTED ))

# --- report -------------------------------------------------------------------------------------------------------
REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  REV="$REV (with uncommitted changes)"
fi
COMMAND="bench/run-matrix.sh"
[ "$SMOKE" = 1 ] && COMMAND="$COMMAND --smoke"
MACHINE="$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $("$JAVA" -version 2>&1 | sed -n 1p); $PINNING;\
 matrix ran for ${ELAPSED}s; git $REV; command: $COMMAND"
CHECK=()
[ "$SMOKE" = "1" ] && CHECK=(--check true)
"$JAVA" -Djava.awt.headless=true -jar "$LOADGEN" report --in "$RAW" --out "$OUT" --machine "$MACHINE" "${CHECK[@]}"
echo "Results in $OUT (results.md, results.csv, *.png); raw runs and server logs in $RAW"
