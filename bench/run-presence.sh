#!/usr/bin/env bash
# Presence on the cable's database, measured (loadgen presence-storm): for each shape, every client connected and
# subscribed first, then three windows of the same length read the rows the database writes per second and the
# server's CPU: nobody joined (the baseline of the same run), everybody joined and idle, and joins and leaves at a
# steady rate. Between the first two, a join storm: every client joins at once, timed until each has its own join
# event and one presence.info() per channel agrees with who joined; the server's heap before and after it gives the
# bytes per presence entry. Fails when a client missed its join or an info() disagreed.
#
#   bench/run-presence.sh           one channel with 1,000 members, and 10,000 connections over 1,000 channels
#                                   (10 each), 20 s windows, churn 50/s, on PostgreSQL and MariaDB (about 8 minutes
#                                   after the builds) -> bench/results/presence.md
#   bench/run-presence.sh --smoke   50 connections on 1 and 10 channels, 2 s windows, PostgreSQL only
#
# Each window starts after 11 s without work: an idle PostgreSQL backend reports its counts up to 10 s late. The smoke
# waits 1 s: it checks that every join arrives and every info() agrees, its rows are not figures.
#
# One channel holds 1,000 members, not 10,000: every join is sent to every member, so a storm of 10,000 joins in one
# channel is 10^8 frames, which measures the fan-out, not presence.
#
# Environment: BENCH_BACKENDS (cable-postgresql,cable-mariadb), BENCH_DB (cable_bench), BENCH_PORT (8090),
# BENCH_WINDOW (20), BENCH_CHURN (50), BENCH_SHAPES (comma-separated "connections channels" pairs), BENCH_OUT,
# BENCH_SKIP_BUILD=1 (reuse the jars), BENCH_PIN (1: server on CPU 0, load generator on CPU 1), BENCH_SERVER_ARGS
# (server JVM options: -Dquarkus.cable.presence.in-stream=true measures joins and leaves written into the channels'
# streams too).
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
DB="${BENCH_DB:-cable_bench}"
PORT="${BENCH_PORT:-8090}"
if [ "$SMOKE" = "1" ]; then
  BACKENDS="${BENCH_BACKENDS:-cable-postgresql}"
  SHAPES=("50 1" "50 10"); WINDOW="${BENCH_WINDOW:-2}"; CHURN="${BENCH_CHURN:-20}"; SETTLE=1
  OUT="${BENCH_OUT:-bench/results/presence-smoke.md}"
else
  BACKENDS="${BENCH_BACKENDS:-cable-postgresql,cable-mariadb}"
  SHAPES=("1000 1" "10000 1000"); WINDOW="${BENCH_WINDOW:-20}"; CHURN="${BENCH_CHURN:-50}"; SETTLE=11
  # BENCH_SHAPES="1000 1": one shape only (the before/after rounds of one change, interleaved).
  if [ -n "${BENCH_SHAPES:-}" ]; then IFS=',' read -r -a SHAPES <<< "$BENCH_SHAPES"; fi
  OUT="${BENCH_OUT:-bench/results/presence.md}"
fi
RAW="$(dirname "$OUT")/presence-raw"
ulimit -n "$(ulimit -Hn)"
# shellcheck source=bench/lib/cable-server.sh
source bench/lib/cable-server.sh

storm() { # backend, connections, channels
  local file="$RAW/$1-$2-$3.json"
  "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -jar "$LOADGEN" presence-storm \
    --url "ws://127.0.0.1:$PORT/cable" --backend "$1" --connections "$2" --channels "$3" --window-s "$WINDOW" \
    --churn-rate "$CHURN" --settle-s "$SETTLE" --out "$file" > "$RAW/$1-$2-$3.log" 2>&1 || { tail -20 "$RAW/$1-$2-$3.log" >&2; return 1; }
  python3 - "$file" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
if not r["ok"]:
    sys.exit(f"presence storm: an info() disagreed with who joined: {json.dumps(r)}")
w = lambda k: f"{r[k]['rowsPerSecond']:.1f} | {100 * r[k]['cpuCores']:.1f}%"
print(f"| {r['connections']:,} over {r['channels']:,} | {r['stormJoinedMs']:,} | {r['stormAgreedMs']:,} | "
      f"{r['heapBytesPerEntry']:,} | {w('baseline')} | {w('idle')} | {w('churn')} ({r['churn']['operations']} ops) |")
PY
}

SECTIONS=()
for backend in "${BACKEND_LIST[@]}"; do
  section="$RAW/$backend.md"
  {
    echo "## $backend"
    echo
    echo "| connections over channels | storm: own joins ms | storm: info() agrees ms | heap B per entry |"\
      "baseline rows/s | baseline CPU | joined idle rows/s | joined idle CPU | churn rows/s | churn CPU |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
  } > "$section"
  for shape in "${SHAPES[@]}"; do
    read -r connections channels <<< "$shape"
    cable_server_start "$backend" # a fresh server and fresh tables for each shape
    storm "$backend" "$connections" "$channels" >> "$section"
    stop_server
  done
  echo >> "$section"
  SECTIONS+=("$section")
done

REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
COMMAND="bench/run-presence.sh"
[ "$SMOKE" = 1 ] && COMMAND="$COMMAND --smoke"
{
  echo "# Presence"
  echo
  echo "Every client connected and subscribed (extended protocol), then: a ${WINDOW} s window with nobody joined"
  echo "(baseline), a join storm (every client joins at once with an id of its own), a ${WINDOW} s window with everybody"
  echo "joined and idle, a ${WINDOW} s window of churn (${CHURN} leaves and joins per second). Rows: what the database"
  echo "wrote per second (PostgreSQL: this database; MariaDB: the server). CPU: the server process, share of one core."
  echo "Storm: until every joiner has its own join event, and until one info() per channel agrees with who joined."
  echo
  echo "$(date -u +%F), git $REV, $(nproc) cores, $("$JAVA" -version 2>&1 | sed -n 1p), $PINNING; command:"\
    "\`${BENCH_SERVER_ARGS:+BENCH_SERVER_ARGS=\"$BENCH_SERVER_ARGS\" }$COMMAND\`."
  echo
  cat "${SECTIONS[@]}"
} > "$OUT"
cat "$OUT"
echo "Written to $OUT"
