# shellcheck shell=bash
# One bench server per cable database, for the scripts that run the load generator against cable-postgresql and
# cable-mariadb only (run-reconnect-storm.sh, run-whispers.sh). Source it from the repository root after setting
# BACKENDS, DB, PORT, RAW and JAVA; it starts the services, builds what runs (unless BENCH_SKIP_BUILD=1), chooses the
# CPU pinning and stops the server on exit. Then per backend: cable_server_start "$backend"; ...; stop_server.
# BENCH_SERVER_ARGS: more JVM options for the server, e.g. -Dquarkus.cable.presence.in-stream=true.

IFS=',' read -r -a BACKEND_LIST <<< "$BACKENDS"

# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
needs=()
case ",$BACKENDS," in *,cable-postgresql,*) needs+=(postgresql) ;; esac
case ",$BACKENDS," in *,cable-mariadb,*) needs+=(mariadb) ;; esac
ensure_services "${needs[@]}"

flavours=()
for backend in "${BACKEND_LIST[@]}"; do flavours+=("${backend#cable-}"); done
if [ "${BENCH_SKIP_BUILD:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests
  bench/server/build.sh "${flavours[@]}"
  ./mvnw -B -q -f bench/loadgen/pom.xml package -DskipTests
fi
LOADGEN=bench/loadgen/target/quarkus-cable-bench-loadgen.jar

if [ "${BENCH_PIN:-1}" = "1" ] && [ "$(nproc)" -ge 2 ]; then
  SERVER_PIN=(taskset -c 0); LOADGEN_PIN=(taskset -c 1); PINNING="server on CPU 0, load generator on CPU 1"
else
  SERVER_PIN=(); LOADGEN_PIN=(); PINNING="no CPU pinning"
fi
# shellcheck source=bench/lib/server-process.sh
source bench/lib/server-process.sh
mkdir -p "$RAW"

# Fresh cable tables in $DB, then the backend's bench server on $PORT, waited for until it answers.
cable_server_start() { # backend
  local flavour="${1#cable-}" url
  case "$flavour" in
    postgresql)
      psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = '$DB'" | grep -q 1 \
        || psql -q -h 127.0.0.1 -U postgres -c "create database $DB"
      psql -q -h 127.0.0.1 -U postgres -d "$DB" -c "drop table if exists cable_messages, cable_channels, cable_shards,
        cable_writers, cable_presence, cable_presence_sessions, cable_presence_nodes"
      url="jdbc:postgresql://127.0.0.1:5432/$DB" ;;
    mariadb)
      mariadb -uroot -h127.0.0.1 -e "create database if not exists $DB; drop table if exists $DB.cable_messages,
        $DB.cable_channels, $DB.cable_shards, $DB.cable_writers, $DB.cable_presence, $DB.cable_presence_sessions,
        $DB.cable_presence_nodes"
      url="jdbc:mariadb://127.0.0.1:3306/$DB" ;;
    *) echo "unknown backend $1 (cable-postgresql, cable-mariadb)" >&2; exit 2 ;;
  esac
  echo "== $1"
  local extra=()
  read -r -a extra <<< "${BENCH_SERVER_ARGS:-}"
  "${SERVER_PIN[@]}" "$JAVA" -Xmx2g --sun-misc-unsafe-memory-access=allow -Dquarkus.profile="$flavour" \
    -Dquarkus.http.port="$PORT" -Dquarkus.datasource.jdbc.url="$url" -Dbench.relay=cable "${extra[@]}" \
    -jar "bench/server/target/$flavour/quarkus-app/quarkus-run.jar" > "$RAW/server-$1.log" 2>&1 &
  SERVER_PID=$!
  await_server "$PORT" "$RAW/server-$1.log"
}
