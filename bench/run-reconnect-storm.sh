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
IFS=',' read -r -a BACKEND_LIST <<< "$BACKENDS"

# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
needs=()
case ",$BACKENDS," in *,cable-postgresql,*) needs+=(postgresql) ;; esac
case ",$BACKENDS," in *,cable-mariadb,*) needs+=(mariadb) ;; esac
ensure_services "${needs[@]}"

flavours=()
for backend in "${BACKEND_LIST[@]}"; do flavours+=("${backend#cable-}"); done
if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests
  bench/server/build.sh "${flavours[@]}"
  ./mvnw -B -q -f bench/loadgen/pom.xml package -DskipTests
fi
LOADGEN=bench/loadgen/target/quarkus-cable-bench-loadgen.jar

if [ "${BENCH_PIN:-1}" = "1" ] && [ "$(nproc)" -ge 2 ]; then
  SERVER_PIN=(taskset -c 0); LOADGEN_PIN=(taskset -c 1); PINNING="server on CPU 0, load generator on CPU 1"
else
  SERVER_PIN=(); LOADGEN_PIN=(); PINNING="no CPU pinning"
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

mkdir -p "$RAW"
SECTIONS=()
for backend in "${BACKEND_LIST[@]}"; do
  flavour="${backend#cable-}"
  case "$flavour" in
    postgresql)
      psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = '$DB'" | grep -q 1 \
        || psql -q -h 127.0.0.1 -U postgres -c "create database $DB"
      psql -q -h 127.0.0.1 -U postgres -d "$DB" -c "drop table if exists cable_messages, cable_channels, cable_shards, cable_writers"
      url="jdbc:postgresql://127.0.0.1:5432/$DB" ;;
    mariadb)
      mariadb -uroot -h127.0.0.1 -e "create database if not exists $DB; drop table if exists $DB.cable_messages,
        $DB.cable_channels, $DB.cable_shards, $DB.cable_writers"
      url="jdbc:mariadb://127.0.0.1:3306/$DB" ;;
    *) echo "unknown backend $backend (cable-postgresql, cable-mariadb)" >&2; exit 2 ;;
  esac
  echo "== $backend"
  "${SERVER_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -Dquarkus.profile="$flavour" \
    -Dquarkus.http.port="$PORT" -Dquarkus.datasource.jdbc.url="$url" -Dbench.relay=cable \
    -jar "bench/server/target/$flavour/quarkus-app/quarkus-run.jar" > "$RAW/server-$backend.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$PORT/bench/info" > /dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -50 "$RAW/server-$backend.log" >&2; exit 1; }
    sleep 0.5
  done
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
