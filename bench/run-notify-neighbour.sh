#!/usr/bin/env bash
# What the cable's LISTEN connections and NOTIFYs cost another NOTIFY user of the same PostgreSQL database, and the
# reverse. PostgreSQL (up to 18) signals every LISTENing backend of a database on every committed NOTIFY, whatever
# its channel, and serializes NOTIFY commits on one cluster-wide lock; this measures what that means next to the cable.
#
# The neighbour (bench/notify/NotifyNeighbour.java pingpong): a job queue's wake-up pattern, a NOTIFY ping-pong
# between two connections on channels of their own, one round trip at a time: round trips per second, p50/p95 ms.
# Measured, interleaved in the same run (rounds alternate the order of the setups; the table gives the median):
#   alone; beside N idle LISTEN connections on a channel nobody notifies (the reference PostgreSQL's own reports
#   quote); the same neighbour in another database of the same server beside the largest N; beside 1, 2 and 4 bench
#   server nodes (the cable on PostgreSQL, each with its doorbell's LISTEN connection and one WebSocket subscriber)
#   idle, then under a steady broadcast load (BENCH_RATE broadcasts/s POSTed to each node, evenly spaced). The nodes
#   join one after the other within a round (1, then a second, then two more), so the node cells of a round always
#   run in that order; the rounds alternate the order of the three setups (alone, listeners, nodes).
# The reverse: the cable's delivery latency (POST sent to frame received on every node's subscriber) under that load
# on 2 nodes without and with the neighbour ping-ponging flat out beside it.
#
#   bench/run-notify-neighbour.sh           3 rounds, 6 s windows, N = 10, 100, 1000, nodes 1, 2, 4
#                                           -> bench/results/notify-neighbour/summary.md (12 minutes on a busy 2-core machine)
#   bench/run-notify-neighbour.sh --smoke   1 round, 1 s windows, N = 10, 1 node under load; fails on a lost
#                                           round trip or a missing delivery (about a minute after the builds)
#                                           -> bench/results/notify-neighbour-smoke/summary.md (not kept)
#
# The server: by default (BENCH_PG=private) a throwaway PostgreSQL cluster of this machine's PostgreSQL binaries,
# initdb'd in a temporary directory, on 127.0.0.1:BENCH_PG_PORT (55432) with max_connections 1100 (1,000 listeners do
# not fit the usual 100), stopped and deleted at the end; its settings are initdb's defaults otherwise (fsync and
# synchronous_commit on). BENCH_PG=shared uses the server on 127.0.0.1:5432 instead (database notify_bench, created
# if missing; keep BENCH_LISTENERS below its max_connections). BENCH_PG_OPTS: more postgres -c settings for the
# private cluster, e.g. "-c synchronous_commit=off".
#
# Environment: BENCH_ROUNDS (3), BENCH_WINDOW (6 s), BENCH_WARMUP (1 s), BENCH_LISTENERS ("10 100 1000"; empty:
# none), BENCH_NODES ("1 2 4"; empty: none), BENCH_RATE (20 broadcasts/s per node), BENCH_NODE_WARMUP (3 s
# of that load, not measured, on the nodes just started; none in smoke mode), BENCH_REVERSE_NODES (2; empty: skip the
# reverse), BENCH_SKIP_BUILD=1 (reuse the built server), BENCH_OUT (the directory), BENCH_SERVER_ARGS (the nodes' JVM
# options, e.g. -Dquarkus.cable.wakeup.mode=probe: nodes without LISTEN and NOTIFY). Nothing is pinned to a CPU;
# loopback only.
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
if [ "$SMOKE" = "1" ]; then
  ROUNDS="${BENCH_ROUNDS:-1}"; WINDOW="${BENCH_WINDOW:-1}"; WARMUP="${BENCH_WARMUP:-0.5}"
  LISTENERS="${BENCH_LISTENERS-10}"; NODES="${BENCH_NODES-1}"; RATE="${BENCH_RATE:-20}"; NODE_WARMUP=0
  REVERSE_NODES="${BENCH_REVERSE_NODES-}"
  OUT="${BENCH_OUT:-bench/results/notify-neighbour-smoke}"; COMMAND="bench/run-notify-neighbour.sh --smoke"
else
  ROUNDS="${BENCH_ROUNDS:-3}"; WINDOW="${BENCH_WINDOW:-6}"; WARMUP="${BENCH_WARMUP:-1}"
  LISTENERS="${BENCH_LISTENERS-10 100 1000}"; NODES="${BENCH_NODES-1 2 4}"; RATE="${BENCH_RATE:-20}"
  NODE_WARMUP="${BENCH_NODE_WARMUP:-3}"
  REVERSE_NODES="${BENCH_REVERSE_NODES-2}"
  OUT="${BENCH_OUT:-bench/results/notify-neighbour}"; COMMAND="bench/run-notify-neighbour.sh"
fi
MODE="${BENCH_PG:-private}"
RAW="$OUT/raw"
rm -rf "$RAW"
mkdir -p "$RAW"
CELLS="$RAW/cells.tsv"
: > "$CELLS"

if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests
  bench/server/build.sh postgresql
fi
SERVER_JAR=bench/server/target/postgresql/quarkus-app/quarkus-run.jar
PGJDBC="$(ls bench/server/target/postgresql/quarkus-app/lib/main/org.postgresql.postgresql-*.jar | head -1)"
"$JAVA_HOME/bin/javac" -cp "$PGJDBC" -d "$RAW/classes" bench/notify/NotifyNeighbour.java
TOOL=("$JAVA" -cp "$RAW/classes:$PGJDBC" NotifyNeighbour)

# ---- the PostgreSQL server --------------------------------------------------------------------------------------
PG_DIR=""
NODE_PIDS=()
LISTENER_PID=""
cleanup() {
  for pid in "${NODE_PIDS[@]}" $LISTENER_PID; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${NODE_PIDS[@]}" $LISTENER_PID; do
    wait "$pid" 2>/dev/null || true
  done
  if [ -n "$PG_DIR" ]; then
    as_postgres "$PGBIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
trap cleanup EXIT
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [ "$MODE" = "private" ]; then
  PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  PG_PORT="${BENCH_PG_PORT:-55432}"
  PG_DIR="$(mktemp -d /tmp/notify-neighbour-pg.XXXXXX)"
  [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
  as_postgres "$PGBIN/initdb" -D "$PG_DIR/data" -A trust -U postgres > "$RAW/initdb.log" 2>&1
  # shellcheck disable=SC2086
  as_postgres "$PGBIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w start -o "-c listen_addresses=127.0.0.1 \
    -c port=$PG_PORT -c max_connections=1100 -c unix_socket_directories=$PG_DIR ${BENCH_PG_OPTS:-}" > /dev/null
else
  # shellcheck source=bench/lib/services.sh
  source bench/lib/services.sh
  ensure_services postgresql
  PG_PORT=5432
fi
export PGOPTIONS="-c client_min_messages=warning"
PSQL=(psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres)
for db in notify_bench notify_bench_other; do
  "${PSQL[@]}" -tAc "select 1 from pg_database where datname = '$db'" | grep -q 1 || "${PSQL[@]}" -c "create database $db"
done
"${PSQL[@]}" -d notify_bench -c "drop table if exists cable_messages, cable_channels, cable_shards, cable_writers,
  cable_presence, cable_presence_sessions, cable_presence_nodes"
PG_VERSION="$("${PSQL[@]}" -tAc "select current_setting('server_version')")"
URL="jdbc:postgresql://127.0.0.1:$PG_PORT/notify_bench?user=postgres"
OTHER_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/notify_bench_other?user=postgres"

# ---- the parts --------------------------------------------------------------------------------------------------
# The neighbour's ping-pong for one window; appends "round<TAB>cell<TAB>json" to the cells file.
neighbour() { # round cell url
  local json
  json="$("${TOOL[@]}" pingpong "$3" "$WARMUP" "$WINDOW" 2> "$RAW/pingpong-$1-$2.err" <<< "" || true)"
  [ -n "$json" ] || { cat "$RAW/pingpong-$1-$2.err" >&2; echo "ping-pong failed" >&2; exit 1; }
  printf '%s\t%s\t%s\n' "$1" "$2" "$json" >> "$CELLS"
  echo "  round $1 $2: $json"
}

await_line() { # file pattern seconds
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || { echo "timed out waiting for '$2' in $1" >&2; cat "$1" >&2; exit 1; }
    sleep 0.2
  done
}

SERVER_ARGS=()
read -r -a SERVER_ARGS <<< "${BENCH_SERVER_ARGS:-}"
start_nodes() { # count: starts nodes until that many run (the ones already running stay)
  local i port
  for i in $(seq $((${#NODE_PIDS[@]} + 1)) "$1"); do
    port=$((8190 + i))
    # One after the other: the first creates the cable's tables (schema strategy update).
    "$JAVA" -Xmx384m --sun-misc-unsafe-memory-access=allow -Dquarkus.profile=postgresql -Dquarkus.http.port="$port" \
      -Dquarkus.datasource.jdbc.url="jdbc:postgresql://127.0.0.1:$PG_PORT/notify_bench" -Dbench.relay=cable \
      -Dquarkus.datasource.jdbc.max-size=10 "${SERVER_ARGS[@]}" -jar "$SERVER_JAR" > "$RAW/node-$i.log" 2>&1 &
    NODE_PIDS+=($!)
    for _ in $(seq 1 240); do
      curl -fs "http://127.0.0.1:$port/bench/info" 2>/dev/null | grep -q '"ready":true' && break
      kill -0 "${NODE_PIDS[-1]}" 2>/dev/null || { tail -40 "$RAW/node-$i.log" >&2; exit 1; }
      sleep 0.25
    done
    curl -fs "http://127.0.0.1:$port/bench/info" | grep -q '"ready":true' \
      || { echo "node $i not ready (log: $RAW/node-$i.log)" >&2; exit 1; }
  done
}
stop_nodes() {
  local pid
  for pid in "${NODE_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${NODE_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  NODE_PIDS=()
}
node_ports() { seq -s, 8191 $((8190 + $1)); }

# The cable's load (rate 0: only the subscribers) for a window, the neighbour beside it unless told "alone".
cable_cell() { # round nodes rate cell [alone]
  local file="$RAW/load-$1-$4.out" seconds
  seconds="$(python3 -c "print($WARMUP + $WINDOW + 1)")"
  "${TOOL[@]}" cable-load "$(node_ports "$2")" "$3" "$seconds" "$WARMUP" > "$file" 2> "$RAW/load-$1-$4.err" &
  local load=$!
  await_line "$file" '^ready' 60
  if [ "${5:-}" = "alone" ]; then
    wait "$load" || { cat "$RAW/load-$1-$4.err" >&2; exit 1; }
  else
    neighbour "$1" "$4" "$URL"
    wait "$load" || { cat "$RAW/load-$1-$4.err" >&2; exit 1; }
  fi
  printf '%s\t%s\t%s\n' "$1" "cable:$4" "$(grep '^{' "$file")" >> "$CELLS"
  echo "  round $1 cable:$4: $(grep '^{' "$file")"
}

setup_alone() { neighbour "$1" alone "$URL"; }

setup_listeners() { # round
  local fifo="$RAW/listeners.fifo" out="$RAW/listeners-$1.out" n last=0
  rm -f "$fifo"; mkfifo "$fifo"
  "${TOOL[@]}" listeners "$URL" < "$fifo" > "$out" 2> "$RAW/listeners-$1.err" &
  LISTENER_PID=$!
  exec 3> "$fifo"
  for n in $LISTENERS; do
    echo "$n" >&3
    await_line "$out" "^ready $n\$" 180
    neighbour "$1" "listeners-$n" "$URL"
    last=$n
  done
  neighbour "$1" "other-db-beside-listeners-$last" "$OTHER_URL"
  exec 3>&-
  wait "$LISTENER_PID" || true
  LISTENER_PID=""
}

setup_nodes() { # round: for each count of BENCH_NODES, ascending, more nodes join the ones already running
  local k previous=0
  for k in $(tr ' ' '\n' <<< "$NODES" | sort -n); do
    start_nodes "$k"
    if [ "$NODE_WARMUP" != 0 ]; then # the new nodes' JIT, before anything is measured
      "${TOOL[@]}" cable-load "$(seq -s, $((8191 + previous)) $((8190 + k)))" "$RATE" "$NODE_WARMUP" 0 \
        > "$RAW/warmup-$1-$k.out" 2>&1 || { cat "$RAW/warmup-$1-$k.out" >&2; exit 1; }
    fi
    previous=$k
    [ "$SMOKE" = 1 ] || cable_cell "$1" "$k" 0 "nodes-$k-idle" # the smoke checks the loaded cell only
    if [ "$k" = "$REVERSE_NODES" ]; then
      if [ $(($1 % 2)) = 1 ]; then
        cable_cell "$1" "$k" "$RATE" "nodes-$k-load"
        cable_cell "$1" "$k" "$RATE" "nodes-$k-load-no-neighbour" alone
      else
        cable_cell "$1" "$k" "$RATE" "nodes-$k-load-no-neighbour" alone
        cable_cell "$1" "$k" "$RATE" "nodes-$k-load"
      fi
    else
      cable_cell "$1" "$k" "$RATE" "nodes-$k-load"
    fi
  done
  stop_nodes
}

# ---- the rounds -------------------------------------------------------------------------------------------------
SETUPS=(alone)
[ -n "$LISTENERS" ] && SETUPS+=(listeners)
[ -n "$NODES" ] && SETUPS+=(nodes)
started=$SECONDS
for round in $(seq 1 "$ROUNDS"); do
  order=("${SETUPS[@]}")
  if [ $((round % 2)) = 0 ]; then # every other round in the reverse order
    order=(); for ((i = ${#SETUPS[@]} - 1; i >= 0; i--)); do order+=("${SETUPS[$i]}"); done
  fi
  echo "== round $round"
  for setup in "${order[@]}"; do
    read -r kind arg <<< "$setup"
    case "$kind" in
      alone) setup_alone "$round" ;;
      listeners) setup_listeners "$round" ;;
      nodes) setup_nodes "$round" ;;
    esac
  done
done
elapsed=$((SECONDS - started))

# ---- the summary ------------------------------------------------------------------------------------------------
REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
HEADER="$(date -u '+%F %H:%M UTC'), git $REV, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end,\
 $("$JAVA" -version 2>&1 | sed -n 1p), PostgreSQL $PG_VERSION ($MODE server${BENCH_PG_OPTS:+, $BENCH_PG_OPTS}),\
 nothing pinned;${BENCH_SERVER_ARGS:+ nodes with $BENCH_SERVER_ARGS;} $ROUNDS round(s), ${WINDOW} s windows after ${WARMUP} s warm-up, $RATE broadcasts/s per node under\
 load; rounds took $elapsed s; command: \`${BENCH_SERVER_ARGS:+BENCH_SERVER_ARGS=\"$BENCH_SERVER_ARGS\" }$COMMAND\`."
python3 - "$CELLS" "$SMOKE" "$HEADER" > "$OUT/summary.md" <<'PY'
import json, statistics, sys
cells, smoke, header = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
rows = {}
order = []
for line in open(cells):
    rnd, cell, data = line.rstrip("\n").split("\t")
    if cell not in rows:
        rows[cell] = []
        order.append(cell)
    rows[cell].append(json.loads(data))
med = lambda cell, key: statistics.median(r[key] for r in rows[cell])
problems = []
print("# The NOTIFY cost to neighbours\n")
print(header + "\n")
print("The neighbour: a NOTIFY ping-pong between two connections on channels of their own (a job queue's wake-up),")
print("one round trip at a time. Median of the rounds; ratio = round trips per second / the neighbour alone.\n")
print("| beside | round trips/s | ratio | p50 ms | p95 ms | per round (round trips/s) |")
print("|---|---|---|---|---|---|")
alone = med("alone", "perSecond") if "alone" in rows else None
label = {
    "alone": "nothing (alone)",
}
def describe(cell):
    if cell.startswith("listeners-"):
        return f"{int(cell.split('-')[1]):,} idle LISTEN connections"
    if cell.startswith("other-db-beside-listeners-"):
        return f"{int(cell.rsplit('-', 1)[1]):,} idle LISTEN connections in another database (neighbour in its own)"
    if cell.startswith("nodes-"):
        parts = cell.split("-")
        state = "idle" if parts[2] == "idle" else "under load"
        return f"{parts[1]} cable node{'s' if parts[1] != '1' else ''}, {state}"
    return label.get(cell, cell)
for cell in order:
    if cell.startswith("cable:"):
        continue
    for r in rows[cell]:
        if r["lost"] or r["roundTrips"] == 0:
            problems.append(f"{cell}: {r}")
    ps = med(cell, "perSecond")
    ratio = f"{ps / alone:.2f}x" if alone else ""
    per = " / ".join(f"{r['perSecond']:,.0f}" for r in rows[cell])
    print(f"| {describe(cell)} | {ps:,.0f} | {ratio} | {med(cell, 'p50Ms'):.2f} | {med(cell, 'p95Ms'):.2f} | {per} |")
cable = [c for c in order if c.startswith("cable:")]
if cable:
    print("\nThe cable's delivery latency in the same windows: a broadcast POSTed to each node, received by one")
    print("subscriber on every node (so across nodes too). Median of the rounds.\n")
    print("Delivered: frames received within 5 s of the last broadcast, of broadcasts x nodes, all rounds.\n")
    print("| cell | broadcasts | delivered | p50 ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|")
    for cell in cable:
        name = cell[len("cable:"):]
        if name.endswith("-idle"):
            continue
        for r in rows[cell]:
            if r["deliveries"] != r["expected"] or r["failed"]:
                problems.append(f"{cell}: {r}")
        beside = "without the neighbour" if name.endswith("no-neighbour") else "beside the neighbour's ping-pong"
        nodes = name.split("-")[1]
        got = sum(r["deliveries"] for r in rows[cell]); exp = sum(r["expected"] for r in rows[cell])
        print(f"| {nodes} node(s) under load, {beside} | {med(cell, 'broadcasts'):,.0f} | {got:,} of {exp:,} | "
              f"{med(cell, 'p50Ms'):.1f} | {med(cell, 'p95Ms'):.1f} | {med(cell, 'p99Ms'):.1f} |")
if problems:
    print("\nProblems: " + "; ".join(problems))
    if smoke:
        sys.stdout.flush()
        sys.exit("notify-neighbour smoke: " + "; ".join(problems))
PY
cat "$OUT/summary.md"
echo "Written to $OUT/summary.md"
