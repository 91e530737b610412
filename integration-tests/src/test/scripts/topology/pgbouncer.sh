#!/usr/bin/env bash
# PgBouncer (Debian 12 ships 1.18) in transaction pooling mode in front of a PostgreSQL server, for the topology
# cases (PgBouncerIT). Transaction mode is the one that breaks session state: LISTEN is accepted on whichever server
# connection is free and its notifications are never forwarded; pgjdbc needs prepareThreshold=0.
#
#   pgbouncer.sh setup   install the package when missing, write the configuration, start it, wait until it answers
#   pgbouncer.sh start   start it (no-op when running)
#   pgbouncer.sh stop    stop it, by its pid file
#   pgbouncer.sh kill    SIGKILL it (the fault of PgBouncerIT; start brings it back)
#
# CABLE_PGBOUNCER_PORT (6432), CABLE_PGBOUNCER_BACKEND_HOST/PORT (127.0.0.1:5432: the stage's main server),
# CABLE_PGBOUNCER_DIR (/tmp/cable-topology/pgbouncer). Every database of the backend is reachable under its own name.
set -euo pipefail

PORT=${CABLE_PGBOUNCER_PORT:-6432}
BACKEND_HOST=${CABLE_PGBOUNCER_BACKEND_HOST:-127.0.0.1}
BACKEND_PORT=${CABLE_PGBOUNCER_BACKEND_PORT:-5432}
DIR=${CABLE_PGBOUNCER_DIR:-/tmp/cable-topology/pgbouncer}
PSQL=(psql -X -q -A -t -h 127.0.0.1 -p "$PORT" -U postgres)

running() {
  [ -f "$DIR/pgbouncer.pid" ] && kill -0 "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null
}

configure() {
  mkdir -p "$DIR"
  cat > "$DIR/pgbouncer.ini" <<INI
[databases]
* = host=$BACKEND_HOST port=$BACKEND_PORT
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir = $DIR
auth_type = trust
auth_file = $DIR/userlist.txt
admin_users = postgres
pool_mode = transaction
; Fewer server connections than clients: the pooler must really multiplex, as in production.
default_pool_size = 4
max_client_conn = 400
; pgjdbc sends extra_float_digits in its startup packet
ignore_startup_parameters = extra_float_digits
logfile = $DIR/pgbouncer.log
pidfile = $DIR/pgbouncer.pid
INI
  echo '"postgres" ""' > "$DIR/userlist.txt"
  chown -R postgres:postgres "$DIR"
}

start() {
  if ! running; then
    # PgBouncer refuses to run as root.
    runuser -u postgres -- pgbouncer -d "$DIR/pgbouncer.ini"
  fi
  for _ in $(seq 1 100); do
    if "${PSQL[@]}" -d postgres -c "SELECT 1" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "PgBouncer did not answer on port $PORT; log:" >&2
  tail -20 "$DIR/pgbouncer.log" >&2 || true
  return 1
}

case "${1:-setup}" in
  setup)
    command -v pgbouncer >/dev/null || { apt-get install -y -q pgbouncer >/dev/null; }
    if running; then kill "$(cat "$DIR/pgbouncer.pid")"; for _ in $(seq 1 50); do running || break; sleep 0.1; done; fi
    configure
    start
    ;;
  start)
    start
    ;;
  stop)
    if running; then kill "$(cat "$DIR/pgbouncer.pid")"; for _ in $(seq 1 50); do running || break; sleep 0.1; done; fi
    ;;
  kill)
    # The fault: SIGKILL, every client and server connection cut at once (start brings it back).
    if running; then
      pid=$(cat "$DIR/pgbouncer.pid")
      kill -9 "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$DIR/pgbouncer.pid" "$DIR/.s.PGSQL.$PORT"
    fi
    ;;
  *)
    echo "usage: $0 setup|start|stop|kill" >&2
    exit 2
    ;;
esac
