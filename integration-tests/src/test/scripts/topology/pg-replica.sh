#!/usr/bin/env bash
# PostgreSQL primary (5441) + hot standby (5442) for the topology stage, the standby replicating through a latency
# proxy (5449, DELAY_MS, default 20 ms) so that an asynchronous standby is really behind when the primary dies.
# Never touches the machine's own clusters (5432, 5433): plain initdb/pg_ctl in a directory of its own, no
# pg_createcluster. Everything runs as the postgres OS user (initdb refuses root).
#
#   pg-replica.sh setup          fresh primary + standby (wipes the previous ones), async replication, running
#   pg-replica.sh sync|async     switch the primary to synchronous (FIRST 1 (standby1)) or asynchronous replication
#   pg-replica.sh kill-primary   SIGKILL every process of the primary at once (a host crash)
#   pg-replica.sh promote        promote the standby (returns when it accepts writes)
#   pg-replica.sh status         one line per node
#   pg-replica.sh stop           stop both nodes and the proxy (idempotent)
set -euo pipefail

DIR=${TOPOLOGY_DIR:-/tmp/cable-topology}/pg
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PRIMARY_PORT=5441
STANDBY_PORT=5442
PROXY_PORT=5449
DELAY_MS=${DELAY_MS:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
psql_at() { timeout 20 "$PGBIN/psql" -X -q -A -t -U postgres -h 127.0.0.1 -p "$1" -d postgres -c "$2"; }
as_postgres() { runuser -u postgres -- "$@"; }
running() { [ -f "$1/postmaster.pid" ] && kill -0 "$(head -1 "$1/postmaster.pid")" 2>/dev/null; }

stop_node() {
  if running "$1"; then
    as_postgres "$PGBIN/pg_ctl" -D "$1" -m immediate -w -t 30 stop >/dev/null || true
  fi
}

stop_proxy() {
  if [ -f "$DIR/proxy.pid" ]; then
    kill "$(cat "$DIR/proxy.pid")" 2>/dev/null || true
    rm -f "$DIR/proxy.pid"
  fi
}

start_proxy() {
  stop_proxy
  python3 "$HERE/delay-proxy.py" "$PROXY_PORT" "$PRIMARY_PORT" "$DELAY_MS" >"$DIR/log/proxy.log" 2>&1 &
  echo $! >"$DIR/proxy.pid"
  for _ in $(seq 1 50); do
    if (exec 3<>/dev/tcp/127.0.0.1/$PROXY_PORT) 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "delay proxy did not start" >&2
  return 1
}

case "${1:-}" in
  setup)
    stop_node "$DIR/standby"; stop_node "$DIR/primary"; stop_proxy
    rm -rf "$DIR/primary" "$DIR/standby"
    mkdir -p "$DIR/sock" "$DIR/log"
    chown -R postgres:postgres "$DIR"
    as_postgres "$PGBIN/initdb" -D "$DIR/primary" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$DIR/log/initdb.log"
    cat >>"$DIR/primary/postgresql.conf" <<CONF
port = $PRIMARY_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR/sock'
wal_level = replica
max_wal_senders = 10
max_replication_slots = 10
wal_keep_size = 256MB
hot_standby = on
synchronous_standby_names = ''
fsync = off
CONF
    as_postgres "$PGBIN/pg_ctl" -D "$DIR/primary" -l "$DIR/log/primary.log" -w -t 60 start >/dev/null
    psql_at $PRIMARY_PORT "SELECT pg_create_physical_replication_slot('standby1')" >/dev/null
    psql_at $PRIMARY_PORT "CREATE DATABASE cable" >/dev/null
    as_postgres "$PGBIN/pg_basebackup" -h 127.0.0.1 -p $PRIMARY_PORT -U postgres -D "$DIR/standby" -R -X stream \
      -S standby1 -c fast
    echo "port = $STANDBY_PORT" >>"$DIR/standby/postgresql.conf"
    # Replication through the latency proxy; the name is what synchronous_standby_names lists (last entry wins).
    echo "primary_conninfo = 'host=127.0.0.1 port=$PROXY_PORT user=postgres application_name=standby1'" \
      >>"$DIR/standby/postgresql.auto.conf"
    start_proxy
    as_postgres "$PGBIN/pg_ctl" -D "$DIR/standby" -l "$DIR/log/standby.log" -w -t 60 start >/dev/null
    for _ in $(seq 1 100); do
      [ "$(psql_at $PRIMARY_PORT "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" = 1 ] && break
      sleep 0.2
    done
    "$0" status
    ;;
  sync)
    psql_at $PRIMARY_PORT "ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (standby1)'" >/dev/null
    psql_at $PRIMARY_PORT "SELECT pg_reload_conf()" >/dev/null
    ;;
  async)
    psql_at $PRIMARY_PORT "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null
    psql_at $PRIMARY_PORT "SELECT pg_reload_conf()" >/dev/null
    ;;
  kill-primary)
    pm=$(head -1 "$DIR/primary/postmaster.pid")
    # The postmaster and all its children in one kill: nothing gets to flush or send anything more.
    kill -9 "$pm" $(ps -o pid= --ppid "$pm") 2>/dev/null || true
    ;;
  promote)
    psql_at $STANDBY_PORT "SELECT pg_promote(wait => true, wait_seconds => 60)" >/dev/null
    ;;
  status)
    for port in $PRIMARY_PORT $STANDBY_PORT; do
      echo "port $port: in_recovery=$(psql_at $port 'SELECT pg_is_in_recovery()' 2>/dev/null || echo down)"
    done
    ;;
  stop)
    stop_node "$DIR/standby"; stop_node "$DIR/primary"; stop_proxy
    ;;
  *)
    echo "usage: $0 setup|sync|async|kill-primary|promote|status|stop" >&2
    exit 2
    ;;
esac
