#!/usr/bin/env bash
# Broadcast throughput of Quarkus Cable (memory, H2, PostgreSQL, MariaDB, and the SQL broadcast cable_broadcast on
# PostgreSQL and MariaDB) against Redis PUBLISH, 1, 5 and 20 threads.
#
#   bench/run-throughput.sh            full run: 100,000 broadcasts per operation, 1 warm-up + 3 measured
#                                      -> bench/results/throughput.md (about 4-5 minutes on 2 cores)
#                                      (the SQL broadcast, one transaction per call: 5,000)
#   bench/run-throughput.sh --smoke    quick check: 10,000 broadcasts (SQL broadcast: 1,000), 1 warm-up + 1 measured
#                                      -> bench/results/throughput-smoke.md (about a minute)
#
# Environment: BENCH_SMOKE=1 (same as --smoke); BENCH_SKIP_INSTALL=1 to use the quarkus-cable already installed in
# the local Maven repository instead of installing runtime/ first; BENCH_JAVA_OPTS for extra -D settings, e.g.
#   BENCH_JAVA_OPTS="-Dbench.backends=postgresql,redis -Dbench.threads=5 -Dbench.autotrim=false"
# (see ThroughputMain and Backend for all bench.* properties).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
SMOKE="${BENCH_SMOKE:-0}"
for arg in "$@"; do
  case "$arg" in
    --smoke) SMOKE=1 ;;
    *) echo "unknown argument: $arg (use --smoke)" >&2; exit 2 ;;
  esac
done

# --- services (localhost only) ------------------------------------------------------------------------------
# shellcheck source=bench/lib/services.sh
source bench/lib/services.sh
ensure_services postgresql mariadb redis

# --- build ----------------------------------------------------------------------------------------------------
if [ "${BENCH_SKIP_INSTALL:-0}" != "1" ]; then
  ./mvnw -B -q -P '!it' install -DskipTests -pl runtime -am
fi
./mvnw -B -q -f bench/pom.xml package -DskipTests

# --- run ------------------------------------------------------------------------------------------------------
if [ "$SMOKE" = "1" ]; then
  MODE=(-Dbench.broadcasts=10000 -Dbench.sqlBroadcasts=1000 -Dbench.warmups=1 -Dbench.iterations=1 -Dbench.out=bench/results/throughput-smoke.md)
  COMMAND="bench/run-throughput.sh --smoke"
else
  MODE=(-Dbench.broadcasts=100000 -Dbench.sqlBroadcasts=5000 -Dbench.warmups=1 -Dbench.iterations=3 -Dbench.out=bench/results/throughput.md)
  COMMAND="bench/run-throughput.sh"
fi
if [ -n "${BENCH_JAVA_OPTS:-}" ]; then
  COMMAND="BENCH_JAVA_OPTS=\"$BENCH_JAVA_OPTS\" $COMMAND"
fi
REV="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  REV="$REV (with uncommitted changes)"
fi

# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" "${MODE[@]}" ${BENCH_JAVA_OPTS:-} "-Dbench.gitRev=$REV" "-Dbench.command=$COMMAND" \
  -jar bench/target/quarkus-cable-bench.jar
