#!/usr/bin/env bash
# The load matrix: Solid Cable's k6 workloads (steady, storm, fanout; churn in smoke mode) against every backend,
# one server at a time, with the Java load generator in a separate process. Writes raw JSON per run, a CSV, a
# markdown table with ratios to the Redis baseline of the same run, and PNG charts.
#
#   bench/run-matrix.sh            full matrix (about 35 minutes on 2 cores, 15 s of warm-up per server) -> bench/results/matrix/
#   bench/run-matrix.sh --smoke    tiny matrix (about 2 minutes, run by .ci/run) -> bench/results/matrix-smoke/; on each
#                                  cable-* backend also a small reconnect storm of recoverable streams (100 clients
#                                  miss 20 broadcasts each and must recover exactly; bench/run-reconnect-storm.sh)
#   bench/run-matrix.sh --multi-node [--smoke]
#                                  two server processes on one database: every run once on node A alone and once
#                                  across nodes (subscribers on node B; steady pings and the fan-out publisher on node
#                                  A), plus an idle case (10 subscribers, 1 broadcast/s from the other node); steady
#                                  also as "one node, paired" (-1p: the cross-node shape's two connections per user,
#                                  both on node A)
#                                  -> bench/results/multinode/ (smoke: multinode-smoke/, about 2 minutes, run by .ci/run)
#   bench/run-matrix.sh --connections [--smoke]
#                                  10,000 connections on one node (smoke: 1,000, run by .ci/run): fan-out to every one
#                                  of them at 1 message/s, with the server's heap per held connection read before the
#                                  publisher starts, and a storm of 10,000 -> bench/results/connections/
#                                  (smoke: connections-smoke/)
#
# Environment:
#   BENCH_BACKENDS    comma list of backends (default: all for the full matrix, memory,redis,cable-postgresql in
#                     smoke): memory, redis, pgnotify (memory adapter + a baseline relay), cable-h2,
#                     cable-postgresql, cable-mariadb (the cable on that database); multi-node only:
#                     cable-postgresql-poll, cable-mariadb-poll (wake-up off, quarkus.cable.wakeup.mode=none: polling
#                     every 100 ms as Solid Cable; idle case only), cable-postgresql-after-commit and
#                     cable-postgresql-in-transaction (the doorbell's quarkus.cable.wakeup.ring set explicitly, to
#                     compare the two in one round)
#   BENCH_IDLE_TIME   multi-node: seconds of the idle case (full default 60)
#   BENCH_DB          database name on PostgreSQL and MariaDB (default cable_bench)
#   BENCH_PORT / BENCH_PORT_B  HTTP ports of node A and node B (default 8090 / 8091)
#   BENCH_TIME        seconds of steady load (full default 30; k6's default is 90)
#   BENCH_FANOUT_TIME seconds of fan-out publishing (full default 15; k6's default is 90)
#   BENCH_PIN         1 (default) pins the server to CPU 0 and the load generator to CPU 1 (in multi-node mode both
#                     nodes share CPU 0); split (multi-node only) pins node A to CPU 0 and node B to CPU 1 with the
#                     load generator, so the two nodes no longer take turns on one core; 0 lets them float.
#                     The databases and Redis always float.
#   BENCH_OUT         where results go (default bench/results/matrix, or matrix-smoke)
#   BENCH_SKIP_BUILD  1 to reuse the jars already built
#   BENCH_SKIP_INSTALL 1 to build the bench server and load generator on the extension already installed (no install
#                     of every module first; .ci/run, whose stages just installed it)
#   BENCH_PROFILE     1 records a JFR profile of each server (raw/server-<backend>.jfr) and writes its hottest
#                     methods to raw/hot-methods-<backend>.txt (jfr view hot-methods)
#   BENCH_SERVER_OPTS / BENCH_LOADGEN_OPTS  extra JVM options
#   BENCH_RUNS        replaces the mode's runs, ';' between them: "steady|1000|--time 30;storm|1000|"
#   BENCH_SERVER_HOME another checkout whose bench server (bench/server/build.sh) runs instead of this one's, with
#                     this checkout's load generator and report (bench/run-before-after.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
SMOKE=0
MULTI=0
CONNECTIONS=0
for arg in "$@"; do
  case "$arg" in
    --smoke) SMOKE=1 ;;
    --multi-node) MULTI=1 ;;
    --connections) CONNECTIONS=1 ;;
    *) echo "unknown argument: $arg (use --smoke, and --multi-node or --connections)" >&2; exit 2 ;;
  esac
done
if [ "$MULTI" = "1" ] && [ "$CONNECTIONS" = "1" ]; then
  echo "--multi-node and --connections are separate matrices: run them one after the other" >&2
  exit 2
fi
DB="${BENCH_DB:-cable_bench}"

PORT="${BENCH_PORT:-8090}"
URL="ws://127.0.0.1:$PORT/cable"
PORT_B="${BENCH_PORT_B:-8091}"
URL_B="ws://127.0.0.1:$PORT_B/cable"
PIN="${BENCH_PIN:-1}"
# Whose bench server runs: this checkout's, or another's with its server built (bench/run-before-after.sh).
SERVER_HOME="${BENCH_SERVER_HOME:-$ROOT}"
if [ "$CONNECTIONS" = "1" ]; then
  # One node holds every connection: the server and the load generator are separate processes, each under the
  # 20,000 file descriptors a process may open here, and the storm closes its connections before reopening them.
  if [ "$SMOKE" = "1" ]; then
    BACKENDS="${BENCH_BACKENDS:-cable-postgresql}"
    HELD="${BENCH_CONNECTIONS:-1000}"
    FANOUT_TIME="${BENCH_FANOUT_TIME:-4}"
    HOLD_WARMUP=15
    STORM_ROUNDS=1
    OUT="${BENCH_OUT:-bench/results/connections-smoke}"
  else
    BACKENDS="${BENCH_BACKENDS:-redis,cable-postgresql,cable-mariadb}"
    HELD="${BENCH_CONNECTIONS:-10000}"
    FANOUT_TIME="${BENCH_FANOUT_TIME:-30}"
    HOLD_WARMUP=45
    STORM_ROUNDS=2
    OUT="${BENCH_OUT:-bench/results/connections}"
  fi
  WARMUP=""
  # The subscribers' warm-up is long enough for all of them to connect and for the heap reading (two full
  # collections) to finish before the publisher's first message.
  RUNS=(
    "fanout|$HELD|--fanout-rate 1 --fanout-time $FANOUT_TIME --fanout-warmup $HOLD_WARMUP --fanout-drain 5 --heap-url http://127.0.0.1:$PORT/bench/heap"
    "storm|$HELD|--storm-rounds $STORM_ROUNDS --storm-max-duration-s 180"
  )
elif [ "$MULTI" = "1" ] && [ "$SMOKE" = "1" ]; then
  BACKENDS="${BENCH_BACKENDS:-cable-postgresql,cable-mariadb}"
  TIME="${BENCH_TIME:-4}"
  FANOUT_TIME="${BENCH_FANOUT_TIME:-4}"
  IDLE_TIME="${BENCH_IDLE_TIME:-5}"
  OUT="${BENCH_OUT:-bench/results/multinode-smoke}"
  WARMUP=""
  RUNS=(
    "steady|20|--time $TIME"
    "fanout|20|--fanout-rate 10 --fanout-time $FANOUT_TIME --fanout-warmup 2 --fanout-drain 3"
    "fanout|10|--fanout-rate 1 --fanout-time $IDLE_TIME --fanout-warmup 2 --fanout-drain 3"
  )
elif [ "$MULTI" = "1" ]; then
  BACKENDS="${BENCH_BACKENDS:-redis,pgnotify,cable-postgresql,cable-mariadb,cable-postgresql-poll,cable-mariadb-poll}"
  TIME="${BENCH_TIME:-30}"
  FANOUT_TIME="${BENCH_FANOUT_TIME:-15}"
  IDLE_TIME="${BENCH_IDLE_TIME:-60}"
  OUT="${BENCH_OUT:-bench/results/multinode}"
  WARMUP="steady|100|--time 8 --graceful-stop-s 10"
  RUNS=()
  for users in 250 500 1000; do RUNS+=("steady|$users|--time $TIME"); done
  for users in 250 750; do
    RUNS+=("fanout|$users|--fanout-rate 10 --fanout-time $FANOUT_TIME --fanout-warmup 5 --fanout-drain 4")
  done
  RUNS+=("fanout|10|--fanout-rate 1 --fanout-time $IDLE_TIME --fanout-warmup 3 --fanout-drain 4")
elif [ "$SMOKE" = "1" ]; then
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
# A focused comparison replaces the mode's runs: BENCH_RUNS="steady|1000|--time 30;storm|1000|" (scenario|users|options).
if [ -n "${BENCH_RUNS:-}" ]; then
  IFS=';' read -r -a RUNS <<< "$BENCH_RUNS"
fi
RAW="$OUT/raw"
if [ "$CONNECTIONS" = "1" ]; then
  # Both processes inherit it: each holds one socket per connection.
  ulimit -n "$(ulimit -Hn)"
  if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((HELD + 1000)) ]; then
    echo "--connections with $HELD connections needs $((HELD + 1000)) file descriptors per process; the limit is $(ulimit -n)" >&2
    exit 2
  fi
fi

# --- services (localhost only) ------------------------------------------------------------------------------------
# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
needs=()
case ",$BACKENDS," in *,redis,*) needs+=(redis) ;; esac
case ",$BACKENDS," in *,pgnotify,*|*,cable-postgresql*) needs+=(postgresql) ;; esac
case ",$BACKENDS," in *,cable-mariadb*) needs+=(mariadb) ;; esac
ensure_services "${needs[@]}"
if [[ " ${needs[*]} " == *" postgresql "* ]]; then
  psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = '$DB'" | grep -q 1 \
    || psql -q -h 127.0.0.1 -U postgres -c "create database $DB"
fi

flavour_of() { # backend -> server build flavour
  case "$1" in
    memory|redis|pgnotify) echo memory ;;
    cable-h2) echo h2 ;;
    cable-postgresql|cable-postgresql-poll|cable-postgresql-after-commit|cable-postgresql-in-transaction) echo postgresql ;;
    cable-mariadb|cable-mariadb-poll) echo mariadb ;;
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
  [ "${BENCH_SKIP_INSTALL:-0}" = "1" ] || ./mvnw -B -q -P '!it' install -DskipTests
  bench/server/build.sh "${FLAVOURS[@]}"
  ./mvnw -B -q -f bench/loadgen/pom.xml package -DskipTests
fi
LOADGEN=bench/loadgen/target/quarkus-cable-bench-loadgen.jar

# --- run ----------------------------------------------------------------------------------------------------------
rm -rf "$RAW" "$OUT/warmup"
mkdir -p "$RAW"
if [ "$PIN" = "split" ] && [ "$MULTI" != "1" ]; then
  echo "BENCH_PIN=split needs --multi-node (it pins node B)" >&2
  exit 2
fi
if [ "$PIN" != "0" ] && [ "$(nproc)" -ge 2 ]; then
  SERVER_PIN=(taskset -c 0)
  SERVER_B_PIN=(taskset -c 0)
  LOADGEN_PIN=(taskset -c 1)
  PINNING="server pinned to CPU 0, load generator to CPU 1, databases and Redis unpinned"
  if [ "$PIN" = "split" ]; then
    SERVER_B_PIN=(taskset -c 1)
    PINNING="node A pinned to CPU 0, node B and the load generator to CPU 1, databases and Redis unpinned"
  fi
else
  SERVER_PIN=()
  SERVER_B_PIN=()
  LOADGEN_PIN=()
  PINNING="no CPU pinning"
fi
SERVER_PID=""
SERVER_B_PID=""
stop_server() {
  local pid
  for pid in "$SERVER_PID" "$SERVER_B_PID"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      wait "$pid" 2>/dev/null || true
    fi
  done
  SERVER_PID=""
  SERVER_B_PID=""
}
trap stop_server EXIT

reset_database() { # each backend starts on empty cable tables
  case "$1" in
    cable-postgresql*)
      psql -q -h 127.0.0.1 -U postgres -d "$DB" \
        -c "drop table if exists cable_messages, cable_channels, cable_shards, cable_writers, cable_presence,
          cable_presence_sessions, cable_presence_nodes" ;;
    cable-mariadb*)
      mariadb -uroot -h127.0.0.1 -e "create database if not exists $DB;
        drop table if exists $DB.cable_messages, $DB.cable_channels, $DB.cable_shards,
        $DB.cable_writers, $DB.cable_presence, $DB.cable_presence_sessions, $DB.cable_presence_nodes" ;;
  esac
}

database_url() { # flavour -> JDBC URL of $DB
  case "$1" in
    postgresql) echo "jdbc:postgresql://127.0.0.1:5432/$DB" ;;
    mariadb) echo "jdbc:mariadb://127.0.0.1:3306/$DB?createDatabaseIfNotExist=true" ;;
  esac
}

launch_server() { # backend, port, log name -> sets LAUNCHED_PID once /bench/info answers
  local backend="$1" port="$2" name="$3" flavour profiling=() extra=() url pid pin=("${SERVER_PIN[@]}")
  [ "$port" = "$PORT_B" ] && pin=("${SERVER_B_PIN[@]}")
  flavour="$(flavour_of "$backend")"
  if [ "${BENCH_PROFILE:-0}" = "1" ]; then
    profiling=("-XX:StartFlightRecording=filename=$RAW/$name.jfr,settings=profile,dumponexit=true")
  fi
  url="$(database_url "$flavour")"
  [ -n "$url" ] && extra+=("-Dquarkus.datasource.jdbc.url=$url")
  case "$backend" in
    *-poll) extra+=("-Dquarkus.cable.wakeup.mode=none") ;;
    *-after-commit) extra+=("-Dquarkus.cable.wakeup.ring=after-commit") ;;
    *-in-transaction) extra+=("-Dquarkus.cable.wakeup.ring=in-transaction") ;;
  esac
  [ "$backend" = pgnotify ] && extra+=("-Dbench.pgnotify.url=jdbc:postgresql://127.0.0.1:5432/$DB?user=postgres")
  # shellcheck disable=SC2086
  "${pin[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow "${profiling[@]}" ${BENCH_SERVER_OPTS:-} -Dquarkus.profile="$flavour" \
    -Dquarkus.http.port="$port" "${extra[@]}" \
    -Dbench.relay="$(relay_of "$backend")" -jar "$SERVER_HOME/bench/server/target/$flavour/quarkus-app/quarkus-run.jar" \
    > "$RAW/$name.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    if curl -fs "http://127.0.0.1:$port/bench/info" > "$RAW/$name.info" 2>/dev/null; then
      LAUNCHED_PID=$pid
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.5
  done
  echo "The $backend server ($name) did not start; its log:" >&2
  tail -50 "$RAW/$name.log" >&2
  kill "$pid" 2>/dev/null || true
  return 1
}

start_server() { # backend; in multi-node mode also node B (after A created the tables)
  local backend="$1"
  reset_database "$backend"
  launch_server "$backend" "$PORT" "server-$backend"
  SERVER_PID=$LAUNCHED_PID
  if [ "$MULTI" = "1" ]; then
    launch_server "$backend" "$PORT_B" "server-$backend-b"
    SERVER_B_PID=$LAUNCHED_PID
  fi
}

run_load() { # backend label, "scenario|users|options", run file[, url of the subscribers' node B]
  local backend="$1" scenario users options cross=()
  IFS='|' read -r scenario users options <<< "$2"
  if [ -n "${4:-}" ]; then cross=(--url "$4" --publish-url "$URL"); else cross=(--url "$URL"); fi
  # shellcheck disable=SC2086
  "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow ${BENCH_LOADGEN_OPTS:-} -jar "$LOADGEN" run \
    "${cross[@]}" --backend "$backend" --scenario "$scenario" --users "$users" --out "$3" $options
}

# The database's own load during a run (multi-node): statements and CPU seconds of the server processes, sampled
# before and after; written as one CSV line per run to raw/dbload.csv.
db_sample() { # backend -> "statements cpu_ticks"
  local statements ticks=0 pid
  case "$1" in
    cable-mariadb*)
      statements="$(mariadb -uroot -h127.0.0.1 -N -e "show global status like 'Questions'" | awk '{print $2}')"
      for pid in $(pgrep -x mariadbd); do ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done ;;
    cable-postgresql*|pgnotify*)
      statements="$(psql -h 127.0.0.1 -U postgres -d "$DB" -tAc "select sum(xact_commit + xact_rollback) from pg_stat_database")"
      for pid in $(pgrep -x postgres); do
        ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
      done ;;
    *) statements=0 ;;
  esac
  echo "$statements $ticks"
}

measured_run() { # backend label, run, file[, node B url]
  local before after seconds start
  before="$(db_sample "$1")"
  start=$(date +%s.%N)
  run_load "$@"
  after="$(db_sample "$1")"
  seconds="$(echo "$(date +%s.%N) - $start" | bc)"
  read -r s0 t0 <<< "$before"
  read -r s1 t1 <<< "$after"
  echo "$(basename "$3" .json),$seconds,$(( ${s1:-0} - ${s0:-0} )),$(( ${t1:-0} - ${t0:-0} ))" >> "$RAW/dbload.csv"
}

STARTED=$(date +%s)
[ "$MULTI" = "1" ] && echo "run,seconds,statements,cpu_ticks(1/$(getconf CLK_TCK) s)" > "$RAW/dbload.csv"
for backend in "${BACKEND_LIST[@]}"; do
  echo "== $backend"
  start_server "$backend"
  if [ -n "$WARMUP" ] && [[ "$backend" != *-poll ]]; then
    run_load "$backend" "$WARMUP" "$OUT/warmup/$backend.json" > /dev/null
    [ "$MULTI" = "1" ] && run_load "$backend" "$WARMUP" "$OUT/warmup/$backend-2n.json" "$URL_B" > /dev/null
  fi
  for run in "${RUNS[@]}"; do
    IFS='|' read -r scenario users options <<< "$run"
    tag="$(echo "$options" | grep -o -- '--fanout-rate [0-9]*' | tr -dc '0-9' || true)"
    if [ "$MULTI" = "1" ]; then
      # The -poll variants only show what the wake-up saves at low load: the idle case.
      # and only across nodes (on one node a broadcast wakes its own poller either way).
      if [[ "$backend" == *-poll ]] && [ "$tag" != "1" ]; then continue; fi
      [[ "$backend" == *-poll ]] || measured_run "$backend" "$run" "$RAW/$backend-$scenario-$users${tag:+-r$tag}.json"
      # The control of steady's shape: the same two connections per user, both on node A (-1p, "one node, paired").
      if [ "$scenario" = steady ] && [[ "$backend" != *-poll ]]; then
        measured_run "$backend-1p" "$run --paired true" "$RAW/$backend-1p-$scenario-$users.json"
      fi
      measured_run "$backend-2n" "$run" "$RAW/$backend-2n-$scenario-$users${tag:+-r$tag}.json" "$URL_B"
    else
      run_load "$backend" "$run" "$RAW/$backend-$scenario-$users${tag:+-r$tag}.json"
    fi
  done
  if [ "$SMOKE" = "1" ] && [ "$MULTI" = "0" ] && [ "$CONNECTIONS" = "0" ] && [[ "$backend" == cable-* ]]; then
    # The reconnect storm of recoverable streams, small (bench/run-reconnect-storm.sh runs the full one): exits 5,
    # and so fails the smoke, when any client does not get exactly what it missed.
    # shellcheck disable=SC2086
    "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow ${BENCH_LOADGEN_OPTS:-} -jar "$LOADGEN" \
      recovery-storm --url "$URL" --backend "$backend" --out "$RAW/recovery-storm-$backend.md" --clients 100 \
      --channels 10 --missed 20 --rounds 1 --warmup-rounds 0 --timeout-s 60
  fi
  stop_server
  if [ -f "$RAW/server-$backend.jfr" ]; then
    "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$RAW/server-$backend.jfr" > "$RAW/hot-methods-$backend.txt" || true
  fi
done
ELAPSED=$(( $(date +%s) - STARTED ))

# --- report -------------------------------------------------------------------------------------------------------
REV="$(git -C "$SERVER_HOME" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git -C "$SERVER_HOME" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  REV="$REV (with uncommitted changes)"
fi
COMMAND="bench/run-matrix.sh"
[ "$MULTI" = 1 ] && COMMAND="$COMMAND --multi-node"
[ "$CONNECTIONS" = 1 ] && COMMAND="$COMMAND --connections"
[ "$SMOKE" = 1 ] && COMMAND="$COMMAND --smoke"
MACHINE="$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $("$JAVA" -version 2>&1 | sed -n 1p); $PINNING;\
 matrix ran for ${ELAPSED}s; git $REV; command: $COMMAND"
CHECK=()
[ "$SMOKE" = "1" ] && CHECK=(--check true)
BASELINE=()
[ "$MULTI" = "1" ] && [[ ",$BACKENDS," == *,redis,* ]] && BASELINE=(--baseline redis-2n)
"$JAVA" -Djava.awt.headless=true -jar "$LOADGEN" report --in "$RAW" --out "$OUT" --machine "$MACHINE" "${CHECK[@]}" "${BASELINE[@]}"
echo "Results in $OUT (results.md, results.csv, *.png); raw runs and server logs in $RAW"
