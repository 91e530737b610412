#!/usr/bin/env bash
# A 3-node MariaDB Galera cluster on this machine, from nothing (topology lab, section 4), for GaleraIT.
# Node N: SQL 331N, gcomm 332N, IST 332(N+3), SST (rsync) 332(N+6); data under $DIR/nN. /etc/mysql is never read.
#
#   galera.sh setup     stop an earlier run, build a fresh cluster (n1 bootstraps, n2 and n3 join by SST), create the
#                       database cable_galera and root@127.0.0.1 without password; 25 s on an idle 2-core machine
#   galera.sh start     same as setup (rejoining killed nodes costs more than rebuilding: lab 4.3)
#   galera.sh kill N    SIGKILL node N, as a host crash would
#   galera.sh stop      stop every node, by pid file
#
# CABLE_GALERA_DIR (/tmp/cable-topology/galera).
set -euo pipefail

DIR=${CABLE_GALERA_DIR:-/tmp/cable-topology/galera}

client() { mariadb --defaults-file="$DIR/n$1.cnf" -uroot "${@:2}"; }

pid_of() { cat "$DIR/n$1/mysql.pid" 2>/dev/null || true; }

stop_all() {
  for n in 3 2 1; do
    local pid; pid=$(pid_of $n)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; fi
  done
  for n in 1 2 3; do
    local pid; pid=$(pid_of $n)
    for _ in $(seq 1 300); do
      { [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; } && break
      sleep 0.1
    done
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fi
  done
}

wait_synced() {
  for _ in $(seq 1 1200); do
    local state
    state=$(client "$1" -N -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | cut -f2 || true)
    [ "$state" = Synced ] && return 0
    sleep 0.1
  done
  echo "Galera node n$1 not Synced; its log:" >&2
  tail -30 "$DIR/n$1/error.log" >&2 || true
  return 1
}

build() {
  command -v mariadbd >/dev/null && [ -f /usr/lib/galera/libgalera_smm.so ] \
    || apt-get install -y -q galera-4 rsync >/dev/null
  stop_all
  rm -rf "$DIR/n1" "$DIR/n2" "$DIR/n3"
  for n in 1 2 3; do
    mkdir -p "$DIR/n$n"
    cat > "$DIR/n$n.cnf" <<CNF
[mariadbd]
datadir=$DIR/n$n/data
socket=$DIR/n$n/mysql.sock
pid-file=$DIR/n$n/mysql.pid
log-error=$DIR/n$n/error.log
port=331$n
bind-address=127.0.0.1
user=mysql
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=64M
wsrep_on=ON
wsrep_provider=/usr/lib/galera/libgalera_smm.so
wsrep_cluster_name=cable-topology
wsrep_cluster_address=gcomm://127.0.0.1:3321,127.0.0.1:3322,127.0.0.1:3323
wsrep_node_name=n$n
wsrep_node_address=127.0.0.1
wsrep_provider_options="base_port=332$n;gmcast.listen_addr=tcp://127.0.0.1:332$n;ist.recv_addr=127.0.0.1:332$((n+3));gcache.size=32M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:332$((n+6))
wsrep_slave_threads=2
[client]
socket=$DIR/n$n/mysql.sock
CNF
    mariadb-install-db --no-defaults --datadir="$DIR/n$n/data" --user=mysql --auth-root-authentication-method=normal \
      --skip-test-db >"$DIR/n$n/install.log" 2>&1
  done
  chown -R mysql:mysql "$DIR/n1" "$DIR/n2" "$DIR/n3"
  # setsid: the nodes must not die with the shell (or the Maven process) that started them.
  setsid mariadbd --defaults-file="$DIR/n1.cnf" --wsrep-new-cluster >/dev/null 2>&1 < /dev/null &
  wait_synced 1
  client 1 -e "CREATE DATABASE cable_galera; CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION"
  for n in 2 3; do
    setsid mariadbd --defaults-file="$DIR/n$n.cnf" >/dev/null 2>&1 < /dev/null &
    wait_synced $n
  done
  client 1 -N -e "SHOW STATUS LIKE 'wsrep_cluster_size'"
}

case "${1:-setup}" in
  setup|start) build ;;
  kill)
    pid=$(pid_of "${2:?node number}")
    [ -n "$pid" ] && kill -9 "$pid"
    ;;
  stop) stop_all ;;
  *)
    echo "usage: $0 setup|start|kill N|stop" >&2
    exit 2
    ;;
esac
