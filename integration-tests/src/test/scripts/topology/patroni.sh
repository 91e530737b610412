#!/usr/bin/env bash
# Patroni 3.0.2 with a single etcd node (v3 API, client 2389, peer 2390: never the default 2379): members pg1
# (PostgreSQL 5443, REST 5453) and pg2 (5444, REST 5454), asynchronous streaming, ttl 10 / loop_wait 2 /
# retry_timeout 3 (TTL, LOOP, RETRY override them). Not part of the CI stage: PatroniFailoverIT runs it on demand
# (topologies.adoc, "Patroni"). Patroni runs directly as the postgres OS user, without systemd; the packaged services
# stay stopped. Everything lives under $TOPOLOGY_DIR/patroni.
#
#   patroni.sh setup                 fresh etcd + both members (wipes the previous ones); returns once pg2 streams
#   patroni.sh leader                "NAME TIMELINE" of the member that runs as primary, nothing when there is none
#   patroni.sh kill-leader           SIGKILL the leader's Patroni and its postmaster with children (a host crash)
#   patroni.sh kill-leader-postgres  SIGKILL only the leader's postmaster (Patroni restarts it in place)
#   patroni.sh stop                  stop both members and etcd (idempotent)
set -euo pipefail

DIR=${TOPOLOGY_DIR:-/tmp/cable-topology}/patroni
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
ETCD_CLIENT=2389
ETCD_PEER=2390
TTL=${TTL:-10} LOOP=${LOOP:-2} RETRY=${RETRY:-3}
pg_port() { echo $((5442 + $1)); }
rest_port() { echo $((5452 + $1)); }
psql_at() { timeout 20 "$PGBIN/psql" -X -q -A -t -U postgres -h 127.0.0.1 -p "$1" -d postgres -c "$2"; }
# The Patroni process of member N: found by its own config file, which only this script's members use. runuser
# stays in between as the parent, so $! would be runuser's pid, not Patroni's.
patroni_pid() { pgrep -u postgres -f "^/usr/bin/python3 /usr/bin/patroni $DIR/pg$1.yml\$" || true; }
# The postmaster is not Patroni's child (it gets reparented), so it is found through its pid file.
postmaster_pid() {
  local pidfile=$DIR/pg$1/postmaster.pid
  [ -f "$pidfile" ] && kill -0 "$(head -1 "$pidfile")" 2>/dev/null && head -1 "$pidfile" || true
}
role_of() { curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$(rest_port "$1")/$2" 2>/dev/null || true; }
is_primary() { [ "$(role_of "$1" primary)" = 200 ]; }
streaming_from() {
  [ "$(psql_at "$(pg_port "$1")" "SELECT count(*) FROM pg_stat_replication WHERE application_name = 'pg2' AND state = 'streaming'" 2>/dev/null)" = 1 ]
}
leader() {
  for n in 1 2; do
    if is_primary $n; then
      # Right after a restart /primary can answer before the status carries the timeline: no leader yet then.
      curl -s -m 2 "http://127.0.0.1:$(rest_port $n)/patroni" | python3 -c \
        'import json, sys; t = json.load(sys.stdin).get("timeline"); print(f"pg'$n' {t}" if t else "")'
      return
    fi
  done
}

stop_all() {
  for n in 1 2; do
    pid=$(patroni_pid $n)
    # SIGTERM: Patroni stops its postgres and releases the leader key.
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  for _ in $(seq 1 150); do
    [ -z "$(patroni_pid 1)$(patroni_pid 2)" ] && break
    sleep 0.2
  done
  for n in 1 2; do
    pid=$(patroni_pid $n)
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    # A postmaster left over from a killed member.
    if [ -n "$(postmaster_pid $n)" ]; then
      runuser -u postgres -- "$PGBIN/pg_ctl" -D "$DIR/pg$n" -m immediate -w -t 30 stop >/dev/null || true
    fi
  done
  if [ -f "$DIR/etcd.pid" ]; then
    kill "$(cat "$DIR/etcd.pid")" 2>/dev/null || true
    rm -f "$DIR/etcd.pid"
  fi
}

await() {
  local what=$1 tries=$2
  shift 2
  for _ in $(seq 1 "$tries"); do
    if "$@"; then return 0; fi
    sleep 0.3
  done
  echo "$what: not reached" >&2
  tail -n 20 "$DIR"/log/*.log >&2
  return 1
}

write_config() {
  local n=$1
  cat >"$DIR/pg$n.yml" <<YML
scope: cable-topology
namespace: /cable-topology/
name: pg$n
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$(rest_port "$n")
  connect_address: 127.0.0.1:$(rest_port "$n")
etcd3:
  hosts: 127.0.0.1:$ETCD_CLIENT
bootstrap:
  dcs:
    ttl: $TTL
    loop_wait: $LOOP
    retry_timeout: $RETRY
    maximum_lag_on_failover: 1048576
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 128MB
  initdb:
  - encoding: UTF8
  - locale: C.UTF-8
  pg_hba:
  - local all all trust
  - host replication replicator 127.0.0.1/32 trust
  - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(pg_port "$n")
  connect_address: 127.0.0.1:$(pg_port "$n")
  data_dir: $DIR/pg$n
  bin_dir: $PGBIN
  pgpass: $DIR/pgpass$n
  authentication:
    superuser: {username: postgres, password: postgres}
    replication: {username: replicator, password: replicator}
    rewind: {username: postgres, password: postgres}
  # pg_basebackup waits for a spread checkpoint otherwise: over a minute before pg2 exists.
  basebackup:
  - checkpoint: fast
  parameters:
    unix_socket_directories: $DIR/sock
YML
}

start_member() {
  runuser -u postgres -- patroni "$DIR/pg$1.yml" >"$DIR/log/pg$1.log" 2>&1 </dev/null &
}

case "${1:-}" in
  setup)
    stop_all
    rm -rf "$DIR"
    mkdir -p "$DIR/log" "$DIR/sock"
    etcd --name cable-topology --data-dir "$DIR/etcd" \
      --listen-client-urls http://127.0.0.1:$ETCD_CLIENT --advertise-client-urls http://127.0.0.1:$ETCD_CLIENT \
      --listen-peer-urls http://127.0.0.1:$ETCD_PEER --initial-advertise-peer-urls http://127.0.0.1:$ETCD_PEER \
      --initial-cluster cable-topology=http://127.0.0.1:$ETCD_PEER --initial-cluster-state new \
      >"$DIR/log/etcd.log" 2>&1 </dev/null &
    echo $! >"$DIR/etcd.pid"
    await "etcd healthy" 100 env ETCDCTL_API=3 etcdctl --endpoints=127.0.0.1:$ETCD_CLIENT endpoint health >/dev/null 2>&1
    write_config 1
    write_config 2
    chown -R postgres:postgres "$DIR"
    # pg1 first, so that it bootstraps the cluster (initdb) and becomes the leader; pg2 clones it.
    start_member 1
    await "pg1 leader" 300 is_primary 1
    psql_at "$(pg_port 1)" "CREATE DATABASE cable" >/dev/null
    start_member 2
    # /replica = 200 does not mean streaming (pg2's slot appears in the leader's next loop): a replica that never
    # streamed can be promoted and lose what it never had, so wait for the real thing.
    await "pg2 streaming" 300 streaming_from 1
    patronictl -c "$DIR/pg1.yml" list
    ;;
  leader)
    leader
    ;;
  kill-leader | kill-leader-postgres)
    name=$(leader | cut -d' ' -f1)
    [ -n "$name" ] || { echo "no leader to kill" >&2; exit 1; }
    n=${name#pg}
    pm=$(postmaster_pid "$n")
    if [ "$1" = kill-leader ]; then
      # Patroni, the postmaster and all its children in one kill: nothing releases the leader key or flushes.
      kill -9 $(patroni_pid "$n") "$pm" $(ps -o pid= --ppid "$pm") 2>/dev/null || true
    else
      kill -9 "$pm"
    fi
    echo "killed $1 of $name"
    ;;
  stop)
    stop_all
    ;;
  *)
    echo "usage: $0 setup|leader|kill-leader|kill-leader-postgres|stop" >&2
    exit 2
    ;;
esac
