#!/usr/bin/env bash
# Where a connection storm's server CPU goes, by layer of the stack: the memory flavour of the bench server, one
# warm-up storm, then a measured storm of USERS users x STORM_ROUNDS connection cycles (connect, subscribe, one ping,
# disconnect: the load matrix's storm) under a flight recording of CPU-time samples, and the server's CPU time read
# from /proc around it. With BEFORE, the same for that checkout's server, rounds taking turns; then
# bench/profile/CpuByLayer.java puts the sides beside each other, in CPU milliseconds per connection cycle. The load
# matrix's storm says how long the herd takes; this says what the server spends per connection, and where. The memory
# flavour because the adapter does no work per connection (what a storm costs is the front end's and the socket's).
#
#   bench/server/build.sh memory                       (and the same in BEFORE's checkout, when comparing)
#   BEFORE=/tmp/before bench/run-storm-profile.sh
#
# Environment:
#   USERS         virtual users of a storm (default 1000)
#   STORM_ROUNDS  connection cycles per user (default 5)
#   WARMUPS       storms before the measured one, per server (default 5: until the JIT compiler is mostly done
#                 with the storm's code; the measured storm's compile time is shown with the figures)
#   ROUNDS        measured storms per side (default 3)
#   ROWS          rows per table (default 25)
#   BEFORE        a checkout of the code before a change, its memory bench server built (optional)
#   BENCH_OUT     where results go (default bench/results/storm-profile): rounds.md (each measured storm's CPU,
#                 JIT and herd time) and summary.md (the sides by layer); recordings, storm results and
#                 the servers' logs in raw/
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
USERS="${USERS:-1000}"
STORM_ROUNDS="${STORM_ROUNDS:-5}"
ROUNDS="${ROUNDS:-3}"
WARMUPS="${WARMUPS:-5}"
ROWS="${ROWS:-25}"
OUT="${BENCH_OUT:-bench/results/storm-profile}"
PORT=18092
PERIOD_MS=1
LOADGEN=bench/loadgen/target/quarkus-cable-bench-loadgen.jar
mkdir -p "$OUT/raw"
OUT="$(cd "$OUT" && pwd)"
: > "$OUT/rounds.md"
[ -f "$LOADGEN" ] || ./mvnw -B -q -f bench/loadgen/pom.xml package -DskipTests

if [ "$(nproc)" -ge 2 ]; then SERVER_PIN=(taskset -c 0); LOADGEN_PIN=(taskset -c 1); else SERVER_PIN=(); LOADGEN_PIN=(); fi
# shellcheck source=bench/lib/server-process.sh
source bench/lib/server-process.sh

cpu_ms() { # pid -> user + system CPU time of the process so far, in milliseconds
  awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$1/stat"
}

jit_ms() { # pid -> time the JIT compiler's compilations have taken so far (wall time), in milliseconds
  "$JAVA_HOME/bin/jstat" -compiler "$1" | awk 'NR == 2 {printf "%d", $4 * 1000}'
}

storm() { # name -> runs the load generator's storm against the server; fails on any failed or missing cycle
  "${LOADGEN_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -jar "$LOADGEN" run \
    --url "ws://127.0.0.1:$PORT/cable" --backend memory --scenario storm --users "$USERS" \
    --storm-rounds "$STORM_ROUNDS" --out "$OUT/raw/$1.json" > "$OUT/raw/$1.out" 2>&1 \
    || { tail -20 "$OUT/raw/$1.out" >&2; exit 1; }
  grep -q " $((USERS * STORM_ROUNDS)) connections (0 failed), 0 subscription failures, .* $((USERS * STORM_ROUNDS)) round trips ok, 0 failed" \
    "$OUT/raw/$1.out" || { echo "storm $1 had failures:" >&2; cat "$OUT/raw/$1.out" >&2; exit 1; }
}

declare -A CYCLES CPU JIT FILES
measure() { # side home round
  local side=$1 home=$2 round=$3 name="$1-$3" jar before after jit_before jit_after
  jar="$home/bench/server/target/memory/quarkus-app/quarkus-run.jar"
  [ -f "$jar" ] || { echo "No memory bench server in $home: run bench/server/build.sh memory there first" >&2; exit 2; }
  "${SERVER_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -XX:FlightRecorderOptions=stackdepth=256 \
    -Dquarkus.profile=memory -Dquarkus.http.port="$PORT" -jar "$jar" > "$OUT/raw/server-$name.log" 2>&1 &
  SERVER_PID=$!
  await_server "$PORT" "$OUT/raw/server-$name.log"
  echo "== round $round, $side ($(git -C "$home" rev-parse --short HEAD))" | tee -a "$OUT/rounds.md"
  for warmup in $(seq 1 "$WARMUPS"); do storm "warmup-$name-$warmup"; done
  "$JAVA_HOME/bin/jcmd" "$SERVER_PID" JFR.start name=storm "jdk.CPUTimeSample#enabled=true" \
    "jdk.CPUTimeSample#throttle=${PERIOD_MS}ms" > /dev/null
  before=$(cpu_ms "$SERVER_PID")
  jit_before=$(jit_ms "$SERVER_PID")
  storm "$name"
  after=$(cpu_ms "$SERVER_PID")
  jit_after=$(jit_ms "$SERVER_PID")
  "$JAVA_HOME/bin/jcmd" "$SERVER_PID" JFR.stop name=storm filename="$OUT/raw/$name.jfr" > /dev/null
  stop_server
  CYCLES[$side]=$(( ${CYCLES[$side]:-0} + USERS * STORM_ROUNDS ))
  CPU[$side]=$(( ${CPU[$side]:-0} + after - before ))
  JIT[$side]=$(( ${JIT[$side]:-0} + jit_after - jit_before ))
  FILES[$side]="${FILES[$side]:+${FILES[$side]},}$OUT/raw/$name.jfr"
  echo "   server CPU $((after - before)) ms (JIT compiling $((jit_after - jit_before)) ms) for $((USERS * STORM_ROUNDS)) cycles;" \
    "$(grep -o 'the herd took [0-9]* ms' "$OUT/raw/$name.out")" | tee -a "$OUT/rounds.md"
}

sides=(after)
[ -n "${BEFORE:-}" ] && sides=(before after)
for round in $(seq 1 "$ROUNDS"); do
  for side in "${sides[@]}"; do
    home="$ROOT"
    [ "$side" = before ] && home="$(cd "$BEFORE" && pwd)"
    measure "$side" "$home" "$round"
  done
done
arguments=()
for side in "${sides[@]}"; do arguments+=("$side=${CYCLES[$side]}:${CPU[$side]}:${JIT[$side]}:${FILES[$side]}"); done
"$JAVA" bench/profile/CpuByLayer.java "$ROWS" "${arguments[@]}" | tee "$OUT/summary.md"
