#!/usr/bin/env bash
# The reconnect storm of recoverable streams: 1,000 clients over 10 channels on the extended protocol
# (actioncable-v1-ext-json) each miss 100 broadcasts while disconnected, then all reconnect at the same instant asking
# for their history; every client must get exactly what it missed (each message once, in order, then
# confirm_history). Timed against a storm of 1,000 fresh connections in the same run, on PostgreSQL and MariaDB.
#
#   bench/run-reconnect-storm.sh           3 measured rounds after 1 warm-up round per backend (about 2 minutes after
#                                          the builds) -> bench/results/reconnect-storm.md
#   bench/run-reconnect-storm.sh --smoke   100 clients, 20 missed, 1 round, PostgreSQL only (run-matrix.sh --smoke
#                                          runs the same check against its cable-postgresql server)
#
# Environment: BENCH_BACKENDS (cable-postgresql,cable-mariadb), BENCH_DB (cable_bench), BENCH_PORT (8090),
# BENCH_CLIENTS (1000), BENCH_CHANNELS (10), BENCH_MISSED (100), BENCH_ROUNDS (3), BENCH_OUT, BENCH_SKIP_BUILD=1
# (reuse the jars), BENCH_PIN (1: server on CPU 0, load generator on CPU 1).
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
  STORM=(--clients "${BENCH_CLIENTS:-100}" --channels "${BENCH_CHANNELS:-10}" --missed "${BENCH_MISSED:-20}"
    --rounds "${BENCH_ROUNDS:-1}" --warmup-rounds 0 --timeout-s 60)
  OUT="${BENCH_OUT:-bench/results/reconnect-storm-smoke.md}"
else
  BACKENDS="${BENCH_BACKENDS:-cable-postgresql,cable-mariadb}"
  STORM=(--clients "${BENCH_CLIENTS:-1000}" --channels "${BENCH_CHANNELS:-10}" --missed "${BENCH_MISSED:-100}"
    --rounds "${BENCH_ROUNDS:-3}" --warmup-rounds 1 --timeout-s 180)
  OUT="${BENCH_OUT:-bench/results/reconnect-storm.md}"
fi
RAW="$(dirname "$OUT")/reconnect-storm-raw"
# shellcheck source=bench/lib/cable-server.sh
source bench/lib/cable-server.sh

SECTIONS=()
for backend in "${BACKEND_LIST[@]}"; do
  cable_server_start "$backend"
  "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -jar "$LOADGEN" recovery-storm \
    --url "ws://127.0.0.1:$PORT/cable" --backend "$backend" --out "$RAW/$backend.md" "${STORM[@]}"
  SECTIONS+=("$RAW/$backend.md")
  stop_server
done

REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
COMMAND="bench/run-reconnect-storm.sh"
[ "$SMOKE" = 1 ] && COMMAND="$COMMAND --smoke"
{
  echo "# Reconnect storm of recoverable streams"
  echo
  echo "Each round: every client connects and subscribes at once without history (fresh storm, timed until the last"
  echo "\`confirm_subscription\`); one broadcast per channel gives every client its position; all disconnect; the missed"
  echo "broadcasts are committed; all reconnect at once with a history request (recovery storm, timed until the last"
  echo "client has its whole replay and \`confirm_history\`); one live broadcast per channel reaches every client after"
  echo "its replay. Every frame is checked: each message once, in order, consecutive offsets, one epoch, no"
  echo "\`reject_history\`."
  echo
  echo "$(date -u +%F), git $REV, $(nproc) cores, $("$JAVA" -version 2>&1 | sed -n 1p), $PINNING; command: \`$COMMAND\`."
  echo
  cat "${SECTIONS[@]}"
} > "$OUT"
echo "Written to $OUT"
