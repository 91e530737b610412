#!/usr/bin/env bash
# The topology stage of .ci/run: the cable against production-like database topologies (docs: topologies.adoc).
# Installs the Debian packages it needs when missing, starts each cluster on ports of its own (never 5432/5433/3306),
# runs the topology ITs (integration-tests/src/test/java/.../it/topology, Maven profile "topology") and tears every
# cluster down, also on failure or interrupt.
#
# A case plugs in with: a cluster script next to this one (NAME.sh setup|stop|..., idempotent), its name in CLUSTERS
# and its packages in PACKAGES below, and an IT class in io.quarkiverse.cable.it.topology that sets the cluster up
# fresh (@BeforeAll new TopologyScript("NAME").run("setup", seconds)) and drives its faults the same way. A case
# breaks its cluster (kills, promotes), so each case builds its own; the stage only guarantees the teardown.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../../.." && pwd)
export TOPOLOGY_DIR=${TOPOLOGY_DIR:-/tmp/cable-topology}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"

# Cluster scripts the stage stops after the tests, whatever happened (the ITs set them up).
CLUSTERS=(pg-replica.sh pgbouncer.sh pg-sync.sh galera.sh)
# Debian packages the clusters need (postgresql-15 is the machine's own; python3 runs the latency proxy; galera-4 and
# rsync make three MariaDB nodes a Galera cluster).
PACKAGES=(postgresql-15 python3 pgbouncer galera-4 rsync)

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

teardown() {
  for cluster in "${CLUSTERS[@]}"; do
    bash "$HERE/$cluster" stop || true
  done
}
trap teardown EXIT INT TERM

mkdir -p "$TOPOLOGY_DIR"

cd "$ROOT"
# PostgreSQL cases in one build (async failover on 5441/5442, PgBouncer on 6432 in front of 5432, a synchronous
# primary on 5447); the Galera case needs the application built for MariaDB, so it gets a build of its own.
./mvnw -B verify -pl integration-tests -Ptopology -Dtopology.scripts="$HERE"
./mvnw -B verify -pl integration-tests -Pdb-mariadb -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=GaleraIT -Dtopology.scripts="$HERE"
