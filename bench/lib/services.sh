# Sourced by the bench scripts: starts the local services a run needs when they are down (localhost only).
# Usage: ensure_services postgresql mariadb redis

wait_for() { # name, check command...
  local name="$1"; shift
  for _ in $(seq 1 30); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "$name did not come up" >&2
  return 1
}

ensure_services() {
  local service
  for service in "$@"; do
    case "$service" in
      postgresql)
        if ! pg_isready -q -h 127.0.0.1 -p 5432; then
          echo "Starting PostgreSQL"
          pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
          wait_for PostgreSQL pg_isready -q -h 127.0.0.1 -p 5432
        fi ;;
      mariadb)
        if ! mariadb-admin -uroot -h127.0.0.1 ping >/dev/null 2>&1; then
          echo "Starting MariaDB"
          start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
          wait_for MariaDB mariadb-admin -uroot -h127.0.0.1 ping
        fi ;;
      redis)
        if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
          echo "Starting Redis"
          redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
            --dir /var/lib/redis --logfile /var/log/redis/ci.log
          wait_for Redis redis-cli -h 127.0.0.1 -p 6379 ping
        fi ;;
      *) echo "unknown service $service" >&2; return 2 ;;
    esac
  done
}
