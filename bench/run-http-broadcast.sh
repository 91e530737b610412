#!/usr/bin/env bash
# The HTTP publish endpoint's throughput (POST /_broadcast, AnyCable's HTTP broadcaster format) on the cable with
# PostgreSQL: 1 and 5 keep-alive publishers, single broadcasts (one per request, what the anycable gem sends outside
# `batching`) and batches of 100, each request answered 201 once its broadcasts are committed (HttpBroadcastMain).
#
#   bench/run-http-broadcast.sh           3 rounds -> bench/results/http-broadcast.md (about a minute of runs after the builds)
#   bench/run-http-broadcast.sh --smoke   1 small round, fails on any failed request -> http-broadcast-smoke.md
#
# Environment: BENCH_SKIP_INSTALL=1 (use the installed extension), BENCH_SKIP_BUILD=1 (reuse the built flavour and the
# load generator), BENCH_ROUNDS (default 3), BENCH_HTTP_PORT (default 8093), BENCH_HTTP_PG_URL (JDBC URL; default the
# flavour's cable_bench database), BENCH_OUT (the table's file).
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

PORT="${BENCH_HTTP_PORT:-8093}"
PG_URL="${BENCH_HTTP_PG_URL:-jdbc:postgresql://127.0.0.1:5432/cable_bench}"
SECRET="bench-http-broadcast-secret"
if [ "$SMOKE" = "1" ]; then
  ROUNDS=1
  SINGLE_REQUESTS=200
  BATCH_REQUESTS=20
  OUT="${BENCH_OUT:-bench/results/http-broadcast-smoke.md}"
  COMMAND="bench/run-http-broadcast.sh --smoke"
else
  ROUNDS="${BENCH_ROUNDS:-3}"
  SINGLE_REQUESTS=2000
  BATCH_REQUESTS=200
  OUT="${BENCH_OUT:-bench/results/http-broadcast.md}"
  COMMAND="bench/run-http-broadcast.sh"
fi
RAW="$(mktemp -d)"

# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
ensure_services postgresql

if [ "${BENCH_SKIP_INSTALL:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests
fi
if [ -z "${BENCH_HTTP_PG_URL:-}" ]; then
  psql -q -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = 'cable_bench'" | grep -q 1 \
    || psql -q -h 127.0.0.1 -U postgres -c "create database cable_bench"
fi
if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  bench/server/build.sh postgresql
  ./mvnw -B -q -f bench/pom.xml package -DskipTests
fi

# shellcheck source=bench/lib/server-process.sh
source bench/lib/server-process.sh

"$JAVA_HOME/bin/java" -Dquarkus.profile=postgresql -Dquarkus.http.port="$PORT" "-Dquarkus.datasource.jdbc.url=$PG_URL" \
  -Dquarkus.cable.http-broadcast.enabled=true "-Dquarkus.cable.http-broadcast.secret=$SECRET" \
  -jar bench/server/target/postgresql/quarkus-app/quarkus-run.jar >"$RAW/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 60); do
  if curl -sf "http://127.0.0.1:$PORT/bench/info" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$RAW/server.log" >&2; exit 1; fi
  sleep 1
done
curl -sf "http://127.0.0.1:$PORT/bench/info" >/dev/null || { echo "server not ready" >&2; exit 1; }

measure() { # threads batch requests
  local line
  line="$("$JAVA_HOME/bin/java" -cp "bench/target/quarkus-cable-bench.jar:bench/target/lib/*" \
    io.quarkiverse.cable.bench.HttpBroadcastMain "http://127.0.0.1:$PORT/_broadcast" "$SECRET" "$1" "$3" "$2")"
  echo "$line" >>"$RAW/runs.jsonl"
  echo "  $line"
}
for round in $(seq 1 "$ROUNDS"); do
  for threads in 1 5; do
    measure "$threads" 1 "$SINGLE_REQUESTS"
    measure "$threads" 100 "$BATCH_REQUESTS"
  done
done
stop_server

REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 - "$RAW/runs.jsonl" "$OUT" "$COMMAND" "$REV" "$ROUNDS" <<'PY'
import json, statistics, subprocess, sys, datetime
raw, out, command, rev, rounds = sys.argv[1:]
runs = [json.loads(l) for l in open(raw)]
nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
lines = ["# HTTP publish endpoint throughput", "",
         f"`{command}`, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, git {rev}, nproc {nproc}, "
         f"{rounds} round(s), medians. The cable on PostgreSQL; each publisher waits for its 201 (committed) before "
         "its next request; one keep-alive HTTP/1.1 client.", "",
         "| Publishers | Broadcasts per request | Broadcasts/s | Requests/s | Failed |", "|---|---|---|---|---|"]
failed = 0
for threads in (1, 5):
    for batch in (1, 100):
        sel = [r for r in runs if r["threads"] == threads and r["batch"] == batch]
        failed += sum(r["failed"] for r in sel)
        lines.append(f"| {threads} | {batch} | {statistics.median(r['perSecond'] for r in sel):,.0f} | "
                     f"{statistics.median(r['requestsPerSecond'] for r in sel):,.0f} | {sum(r['failed'] for r in sel)} |")
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text)
if failed:
    print(f"FAILED: {failed} broadcasts failed", file=sys.stderr)
    sys.exit(1)
PY
rm -rf "$RAW"
