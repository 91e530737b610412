#!/usr/bin/env bash
# A PostgreSQL cluster of its own for the fault tests (DatabaseRestartIT, SoakIT): they stop and start it while
# broadcasting, which must never disturb the main server on 5432 that other runs use.
#
#   fault-postgres.sh setup    create the cluster when missing (trust auth on 127.0.0.1), start it, create cable_fault
#   fault-postgres.sh start    start it (no-op when running) and wait until it accepts connections
#   fault-postgres.sh stop     fast shutdown: sessions are terminated, in-flight transactions roll back
#   fault-postgres.sh crash    immediate shutdown, as if the server process died
#
# CABLE_FAULT_PG_PORT (5433), CABLE_FAULT_PG_CLUSTER (cablefault), CABLE_FAULT_PG_VERSION (newest in /etc/postgresql).
set -euo pipefail

PORT=${CABLE_FAULT_PG_PORT:-5433}
NAME=${CABLE_FAULT_PG_CLUSTER:-cablefault}
VERSION=${CABLE_FAULT_PG_VERSION:-$(ls /etc/postgresql | sort -V | tail -1)}
CTL=(pg_ctlcluster --skip-systemctl-redirect)

running() {
  pg_isready -h 127.0.0.1 -p "$PORT" -q
}

wait_running() {
  for _ in $(seq 1 120); do
    if running; then return 0; fi
    sleep 0.5
  done
  echo "fault PostgreSQL cluster $VERSION/$NAME did not come up on port $PORT" >&2
  return 1
}

start() {
  if ! running; then
    "${CTL[@]}" "$VERSION" "$NAME" start
  fi
  wait_running
}

case "${1:-setup}" in
  setup)
    if [ ! -d "/etc/postgresql/$VERSION/$NAME" ]; then
      pg_createcluster "$VERSION" "$NAME" --port "$PORT" -- --auth-host=trust --auth-local=trust >/dev/null
    fi
    start
    psql -h 127.0.0.1 -p "$PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'cable_fault'" | grep -q 1 \
      || psql -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE cable_fault"
    ;;
  start)
    start
    ;;
  stop)
    if running; then "${CTL[@]}" -m fast "$VERSION" "$NAME" stop; fi
    ;;
  crash)
    if running; then "${CTL[@]}" -m immediate "$VERSION" "$NAME" stop; fi
    ;;
  *)
    echo "usage: $0 setup|start|stop|crash" >&2
    exit 2
    ;;
esac
