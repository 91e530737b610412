#!/usr/bin/env bash
# Transactional broadcast throughput against plain broadcasts, on PostgreSQL and MariaDB, 1 and 5 threads, measured in
# the same server session (the bench server's POST /bench/tx-throughput, TransactionalThroughput.java).
#
#   bench/run-tx-throughput.sh           3 rounds -> bench/results/tx-throughput.md (about 75 s of runs after the builds, 2 cores)
#   bench/run-tx-throughput.sh --smoke   1 small round, fails on any failed broadcast -> tx-throughput-smoke.md
#
# Modes: plain (cable.broadcast, no transaction, 2,000 in flight per thread), tx (one broadcast per transaction),
# tx10 (10 broadcasts per transaction). Every round runs every mode once per thread count, in alternating order
# (plain tx tx10, then tx10 tx plain, ...); the table gives each mode's median over the rounds.
#
# Environment: BENCH_SKIP_INSTALL=1 (use the installed extension), BENCH_SKIP_BUILD=1 (reuse the built flavours),
# BENCH_ROUNDS (default 3), BENCH_TX_PORT (default 8092), BENCH_TX_PG_URL / BENCH_TX_MARIADB_URL (JDBC URLs; default:
# the flavours' cable_bench databases), BENCH_TX_COUNTS="plain tx tx10" broadcasts per run (default "20000 2000 10000"),
# BENCH_TX_DATABASES (default "postgresql mariadb"), BENCH_SERVER_OPTS (extra -D settings for the server, e.g.
# "-Dquarkus.cable.wakeup.ring=after-commit"), BENCH_OUT (the table's file).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
SMOKE="${BENCH_SMOKE:-0}"
for arg in "$@"; do
  case "$arg" in
    --smoke) SMOKE=1 ;;
    *) echo "unknown argument: $arg (use --smoke)" >&2; exit 2 ;;
  esac
done

PORT="${BENCH_TX_PORT:-8092}"
PG_URL="${BENCH_TX_PG_URL:-jdbc:postgresql://127.0.0.1:5432/cable_bench}"
MARIADB_URL="${BENCH_TX_MARIADB_URL:-jdbc:mariadb://127.0.0.1:3306/cable_bench?createDatabaseIfNotExist=true}"
if [ "$SMOKE" = "1" ]; then
  ROUNDS=1
  read -r N_PLAIN N_TX N_TX10 <<<"${BENCH_TX_COUNTS:-2000 200 1000}"
  OUT="${BENCH_OUT:-bench/results/tx-throughput-smoke.md}"
  COMMAND="bench/run-tx-throughput.sh --smoke"
else
  ROUNDS="${BENCH_ROUNDS:-3}"
  read -r N_PLAIN N_TX N_TX10 <<<"${BENCH_TX_COUNTS:-20000 2000 10000}"
  OUT="${BENCH_OUT:-bench/results/tx-throughput.md}"
  COMMAND="bench/run-tx-throughput.sh"
fi
if [ -n "${BENCH_SERVER_OPTS:-}" ]; then
  COMMAND="BENCH_SERVER_OPTS=\"$BENCH_SERVER_OPTS\" $COMMAND"
fi
RAW="$(mktemp -d)"

# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
ensure_services postgresql mariadb

if [ "${BENCH_SKIP_INSTALL:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests
fi
DATABASES="${BENCH_TX_DATABASES:-postgresql mariadb}"
# The default PostgreSQL URL names cable_bench, which a fresh server lacks (MariaDB's URL creates its database).
if [[ " $DATABASES " == *" postgresql "* ]] && [ -z "${BENCH_TX_PG_URL:-}" ]; then
  psql -q -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = 'cable_bench'" | grep -q 1 \
    || psql -q -h 127.0.0.1 -U postgres -c "create database cable_bench"
fi
if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  # shellcheck disable=SC2086
  bench/server/build.sh $DATABASES
fi

# shellcheck source=bench/lib/server-process.sh
source bench/lib/server-process.sh

# One measured run: flavour, mode, threads, broadcasts -> one JSON line in $RAW/<flavour>.jsonl
measure() {
  local line
  line="$(curl -sf --max-time 600 -X POST \
    "http://127.0.0.1:$PORT/bench/tx-throughput?mode=$2&threads=$3&broadcasts=$4")"
  echo "$line" >>"$RAW/$1.jsonl"
  echo "  $line"
}

count_of() {
  case "$1" in plain) echo "$N_PLAIN" ;; tx) echo "$N_TX" ;; tx10) echo "$N_TX10" ;; esac
}

for flavour in $DATABASES; do
  url="$PG_URL"
  [ "$flavour" = mariadb ] && url="$MARIADB_URL"
  echo "== $flavour ($url)"
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" ${BENCH_SERVER_OPTS:-} -Dquarkus.profile="$flavour" -Dquarkus.http.port="$PORT" \
    "-Dquarkus.datasource.jdbc.url=$url" -jar "bench/server/target/$flavour/quarkus-app/quarkus-run.jar" \
    >"$RAW/$flavour-server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 60); do
    if curl -sf "http://127.0.0.1:$PORT/bench/info" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$RAW/$flavour-server.log" >&2; exit 1; fi
    sleep 1
  done
  curl -sf "http://127.0.0.1:$PORT/bench/info" >/dev/null || { echo "$flavour server not ready" >&2; exit 1; }
  # Warm-up (not recorded): every mode once, a tenth of a run, on 5 threads.
  for mode in plain tx tx10; do
    curl -sf --max-time 600 -X POST \
      "http://127.0.0.1:$PORT/bench/tx-throughput?mode=$mode&threads=5&broadcasts=$(($(count_of $mode) / 10))" >/dev/null
  done
  for round in $(seq 1 "$ROUNDS"); do
    order=(plain tx tx10)
    [ $((round % 2)) -eq 0 ] && order=(tx10 tx plain)
    for threads in 1 5; do
      for mode in "${order[@]}"; do
        measure "$flavour" "$mode" "$threads" "$(count_of "$mode")"
      done
    done
  done
  stop_server
done

REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  REV="$REV (with uncommitted changes)"
fi
python3 - "$RAW" "$OUT" "$COMMAND" "$REV" "$ROUNDS" "$N_PLAIN" "$N_TX" "$N_TX10" "$SMOKE" "$DATABASES" <<'PY'
import json, statistics, subprocess, sys, datetime
raw, out, command, rev, rounds, n_plain, n_tx, n_tx10, smoke, databases = sys.argv[1:]
names = {"postgresql": "PostgreSQL", "mariadb": "MariaDB"}
def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception:
        return "unknown"
lines = [f"# Transactional broadcast throughput", "",
         f"`{command}`, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, git {rev}, "
         f"nproc {version(['nproc'])}, {rounds} round(s), medians. "
         f"Broadcasts per run: plain {int(n_plain):,}, tx {int(n_tx):,}, tx10 {int(n_tx10):,}; 40-byte payloads, "
         f"10 channels.", "",
         "| Database | Threads | plain (b/s) | tx, 1 per transaction (b/s) | tx / plain | tx10, 10 per transaction (b/s) "
         "| tx10 / plain | Failed |",
         "|---|---|---|---|---|---|---|---|"]
failed_total = 0
for flavour in databases.split():
    runs = [json.loads(l) for l in open(f"{raw}/{flavour}.jsonl")]
    for threads in (1, 5):
        med = {}
        failed = 0
        for mode in ("plain", "tx", "tx10"):
            sel = [r for r in runs if r["mode"] == mode and r["threads"] == threads]
            med[mode] = statistics.median(r["perSecond"] for r in sel)
            failed += sum(r["failed"] for r in sel)
        failed_total += failed
        lines.append(f"| {names[flavour]} | {threads} | {med['plain']:,.0f} | {med['tx']:,.0f} | "
                     f"{med['tx'] / med['plain']:.3f} | {med['tx10']:,.0f} | {med['tx10'] / med['plain']:.3f} | {failed} |")
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text)
if failed_total:
    print(f"FAILED: {failed_total} broadcasts failed", file=sys.stderr)
    sys.exit(1)
PY
rm -rf "$RAW"
