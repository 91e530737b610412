#!/usr/bin/env bash
# Whisper fan-out against broadcast fan-out, side by side in one run: the lecture (one publisher, N subscribers of one
# FanoutChannel stream, R messages/s) sent as broadcasts (the channel's publish action: stored, with positions) and
# as whispers (AnyCable's whisper command: not stored), rounds interleaved on the same server so that drift on a noisy
# machine hits both alike. Every delivery is checked: once, in order, no gap.
#
#   bench/run-whispers.sh           3 interleaved rounds of 500 subscribers at 10/s for 15 s each, on PostgreSQL and
#                                   MariaDB (about 6 minutes after the builds) -> bench/results/whispers.md
#   bench/run-whispers.sh --smoke   1 round of 20 subscribers at 10/s for 3 s, PostgreSQL only
#
# The rate stays within the whisper limit (quarkus.cable.limits.whisper-rate, 20/s per connection): above it, the
# publisher's whispers are dropped by design, which is not what this measures.
#
# Environment: BENCH_BACKENDS (cable-postgresql,cable-mariadb), BENCH_DB (cable_bench), BENCH_PORT (8090),
# BENCH_USERS (500), BENCH_RATE (10), BENCH_TIME (15), BENCH_ROUNDS (3), BENCH_OUT, BENCH_SKIP_BUILD=1 (reuse the
# jars), BENCH_PIN (1: server on CPU 0, load generator on CPU 1).
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
  USERS="${BENCH_USERS:-20}"; RATE="${BENCH_RATE:-10}"; TIME="${BENCH_TIME:-3}"; ROUNDS="${BENCH_ROUNDS:-1}"
  OUT="${BENCH_OUT:-bench/results/whispers-smoke.md}"
else
  BACKENDS="${BENCH_BACKENDS:-cable-postgresql,cable-mariadb}"
  USERS="${BENCH_USERS:-500}"; RATE="${BENCH_RATE:-10}"; TIME="${BENCH_TIME:-15}"; ROUNDS="${BENCH_ROUNDS:-3}"
  OUT="${BENCH_OUT:-bench/results/whispers.md}"
fi
RAW="$(dirname "$OUT")/whispers-raw"
# shellcheck source=bench/lib/cable-server.sh
source bench/lib/cable-server.sh

# One fan-out run; fails unless every subscriber got every message once, in order.
fanout() { # backend, via (broadcast|whisper), round
  local file="$RAW/$1-$2-r$3.json"
  "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -jar "$LOADGEN" run \
    --url "ws://127.0.0.1:$PORT/cable" --backend "$1" --scenario fanout --users "$USERS" --fanout-rate "$RATE" \
    --fanout-time "$TIME" --fanout-warmup 3 --fanout-drain 4 --fanout-via "$2" \
    --test-id "$1-$2-r$3-$(date +%s)" --out "$file" > "$RAW/$1-$2-r$3.log" 2>&1 \
    || { tail -20 "$RAW/$1-$2-r$3.log" >&2; return 1; }
  # Checked and turned into a table row; python3, as the other bench scripts' table tools.
  python3 - "$file" "$USERS" "$2" "$3" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
f, users, via, round_ = run["fanout"], int(sys.argv[2]), sys.argv[3], sys.argv[4]
if f["gaps"] or f["duplicates"] or f["outOfOrder"] or f["deliveriesReceived"] != f["expectedDeliveries"] \
        or f["subscribersCompleted"] != users:
    sys.exit(f"{via} round {round_}: not every message once and in order: {json.dumps(f)}")
lat = f["latency"]
print(f"| {via} | {round_} | {f['deliveriesReceived']} | " + " | ".join(f"{lat[k]:.1f}" for k in ("p50", "p95", "p99", "max")) + " |")
PY
}

SECTIONS=()
for backend in "${BACKEND_LIST[@]}"; do
  cable_server_start "$backend"
  section="$RAW/$backend.md"
  {
    echo "## $backend"
    echo
    echo "| sent as | round | deliveries | p50 ms | p95 ms | p99 ms | max ms |"
    echo "|---|---|---|---|---|---|---|"
  } > "$section"
  for round in $(seq 1 "$ROUNDS"); do
    # Alternating which goes first, so that neither always runs on a server warmed by the other.
    if [ $((round % 2)) = 1 ]; then order=(broadcast whisper); else order=(whisper broadcast); fi
    for via in "${order[@]}"; do fanout "$backend" "$via" "$round" >> "$section"; done
  done
  echo >> "$section"
  SECTIONS+=("$section")
  stop_server
done

REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
COMMAND="bench/run-whispers.sh"
[ "$SMOKE" = 1 ] && COMMAND="$COMMAND --smoke"
{
  echo "# Whisper fan-out against broadcast fan-out"
  echo
  echo "One publisher and $USERS subscribers of one FanoutChannel stream, $RATE messages/s for $TIME s, sent as"
  echo "broadcasts (the publish action: stored, positions) or as whispers (not stored), rounds interleaved on the same"
  echo "server. Latency: the publisher's send time to each subscriber's receipt (one clock). Every run checked: every"
  echo "message once, in order, at every subscriber."
  echo
  echo "$(date -u +%F), git $REV, $(nproc) cores, $("$JAVA" -version 2>&1 | sed -n 1p), $PINNING; command: \`$COMMAND\`."
  echo
  cat "${SECTIONS[@]}"
} > "$OUT"
cat "$OUT"
echo "Written to $OUT"
