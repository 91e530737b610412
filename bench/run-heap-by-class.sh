#!/usr/bin/env bash
# What a held Action Cable connection keeps on the server's heap, class by class: the memory flavour of the bench
# server, a live-object class histogram (jmap -histo:live) before and while bench/heap/HeapByClass.java holds
# HELD connections with one subscription each, and the difference per connection. With BEFORE, the same for that
# checkout's server, and the difference of the two, class by class: where a change of heap per connection comes from.
# The connections case of run-matrix.sh says how much (on a database, at 10,000); this says what. The memory flavour
# because the adapter holds nothing per connection (the per-connection state is the front end's and the socket's).
#
#   bench/server/build.sh memory                       (and the same in BEFORE's checkout, when comparing)
#   HELD=5000 BEFORE=/tmp/before bench/run-heap-by-class.sh
#
# Environment:
#   HELD       connections held (default 5000); past 25,000 they come from further loopback source addresses
#              (127.0.0.2, ...), and the file-descriptor limit is raised for both processes (root may raise it)
#   SERVER_HEAP, CLIENT_HEAP  the server's and the holding client's -Xmx (default 2g and 1g; for 100,000: 4g and 8g)
#   ROWS       classes listed (default 30)
#   BEFORE     a checkout of the code before a change, its memory bench server built (optional)
#   BENCH_OUT  where results go (default bench/results/heap-by-class): <side>.md and compare.md; the
#              histograms' differences (raw/<side>.tsv, for compare) and the servers' logs in raw/
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
HELD="${HELD:-5000}"
ROWS="${ROWS:-30}"
OUT="${BENCH_OUT:-bench/results/heap-by-class}"
PORT=18091
SERVER_HEAP="${SERVER_HEAP:-2g}"
CLIENT_HEAP="${CLIENT_HEAP:-1g}"
mkdir -p "$OUT/raw"
# One socket per connection in each process, plus the JVMs' own.
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((HELD + 1000)) ]; then
  ulimit -Hn $((HELD + 1000)) 2>/dev/null || true
  ulimit -n $((HELD + 1000)) 2>/dev/null || {
    # Raising the hard limit takes CAP_SYS_RESOURCE, which some sandboxes drop even for root.
    echo "HELD=$HELD needs $((HELD + 1000)) file descriptors per process; the hard limit is $(ulimit -Hn)" >&2
    exit 2
  }
fi

# shellcheck source=bench/lib/server-process.sh
source bench/lib/server-process.sh

measure() { # side home
  local side=$1 jar="$2/bench/server/target/memory/quarkus-app/quarkus-run.jar"
  if [ ! -f "$jar" ]; then
    echo "No memory bench server in $2: run bench/server/build.sh memory there first" >&2
    exit 2
  fi
  "$JAVA" -Xmx"$SERVER_HEAP" -Dquarkus.profile=memory -Dquarkus.http.port="$PORT" -jar "$jar" > "$OUT/raw/server-$side.log" 2>&1 &
  SERVER_PID=$!
  await_server "$PORT" "$OUT/raw/server-$side.log"
  echo "== $side ($2)"
  "$JAVA" -Xmx"$CLIENT_HEAP" bench/heap/HeapByClass.java hold "$SERVER_PID" "ws://127.0.0.1:$PORT/cable" "$HELD" "$ROWS" \
    "$OUT/raw/$side.tsv" | tee "$OUT/$side.md"
  stop_server
}

if [ -n "${BEFORE:-}" ]; then
  measure before "$(cd "$BEFORE" && pwd)"
fi
measure after "$ROOT"
if [ -n "${BEFORE:-}" ]; then
  echo "== after - before"
  "$JAVA" bench/heap/HeapByClass.java compare "$OUT/raw/before.tsv" "$OUT/raw/after.tsv" "$ROWS" | tee "$OUT/compare.md"
fi
