#!/usr/bin/env bash
# A PostgreSQL primary of its own whose commits are synchronous to a standby named standby1, for SyncReplicationIT.
# The standby itself is never started: "standby-away" lists it in synchronous_standby_names, which is exactly the
# primary's state while its only synchronous standby is down (every COMMIT waits, without error, until it returns).
#
#   pg-sync.sh setup          initdb (trust auth on 127.0.0.1) when missing, start, create database cable_sync
#   pg-sync.sh start|stop     start (no-op when running) / fast shutdown
#   pg-sync.sh standby-away   synchronous_standby_names = 'FIRST 1 (standby1)', reloaded: commits now wait
#   pg-sync.sh standby-back   synchronous_standby_names = '' (every waiting commit returns)
#
# CABLE_PGSYNC_PORT (5447), CABLE_PGSYNC_DIR (/tmp/cable-topology/pg-sync), CABLE_PG_BIN (newest /usr/lib/postgresql/*/bin).
set -euo pipefail

PORT=${CABLE_PGSYNC_PORT:-5447}
DIR=${CABLE_PGSYNC_DIR:-/tmp/cable-topology/pg-sync}
BIN=${CABLE_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
DATA=$DIR/data
# Bounded: with the standby away even a housekeeping statement that writes would wait for ever.
PSQL=(timeout 20 "$BIN/psql" -X -q -A -t -h 127.0.0.1 -p "$PORT" -U postgres -d postgres)
as_postgres() { runuser -u postgres -- "$@"; }

running() {
  "$BIN/pg_isready" -h 127.0.0.1 -p "$PORT" -q
}

start() {
  if ! running; then
    as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$DIR/postgres.log" -w -t 60 start >/dev/null
  fi
}

names() {
  "${PSQL[@]}" -c "ALTER SYSTEM SET synchronous_standby_names = '$1'" -c "SELECT pg_reload_conf()" >/dev/null
  # The reload is asynchronous: wait until a new session sees the value.
  for _ in $(seq 1 100); do
    [ "$("${PSQL[@]}" -c 'SHOW synchronous_standby_names')" = "$1" ] && return 0
    sleep 0.1
  done
  echo "synchronous_standby_names did not become '$1'" >&2
  return 1
}

case "${1:-setup}" in
  setup)
    if [ ! -f "$DATA/PG_VERSION" ]; then
      mkdir -p "$DIR" && chown postgres:postgres "$DIR"
      as_postgres "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log"
      cat >> "$DATA/postgresql.conf" <<CONF
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
wal_level = replica
max_wal_senders = 4
synchronous_commit = on
CONF
    fi
    start
    names ''
    "${PSQL[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'cable_sync'" | grep -q 1 \
      || "${PSQL[@]}" -c "CREATE DATABASE cable_sync"
    ;;
  start) start ;;
  stop)
    if running; then
      names '' || true
      as_postgres "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >/dev/null
    fi
    ;;
  standby-away) names 'FIRST 1 (standby1)' ;;
  standby-back) names '' ;;
  *)
    echo "usage: $0 setup|start|stop|standby-away|standby-back" >&2
    exit 2
    ;;
esac
