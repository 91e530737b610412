#!/usr/bin/env bash
# The topology stage of .ci/run: the cable against production-like database topologies (docs: topologies.adoc).
# Installs the Debian packages it needs when missing, starts each cluster on ports of its own (never 5432/5433/3306),
# runs the topology ITs (integration-tests/src/test/java/.../it/topology, Maven profile "topology") and tears every
# cluster down, also on failure or interrupt.
#
# A case plugs in with: a cluster script next to this one (NAME.sh setup|stop|..., idempotent), its name in CLUSTERS
# and its packages in PACKAGES below, and an IT class in io.quarkiverse.cable.it.topology that sets the cluster up
# fresh (@BeforeAll Topology.script("NAME.sh", "setup")) and drives its faults through Topology.script. A case
# breaks its cluster (kills, promotes), so each case builds its own; the stage only guarantees the teardown.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../../.." && pwd)
export TOPOLOGY_DIR=${TOPOLOGY_DIR:-/tmp/cable-topology}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"

# Cluster scripts the stage stops after the tests, whatever happened (the ITs set them up).
CLUSTERS=(pg-replica.sh)
# Debian packages the clusters need (postgresql-15 is the machine's own; python3 runs the latency proxy).
PACKAGES=(postgresql-15 python3)

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
./mvnw -B verify -pl integration-tests -Ptopology -Dtopology.scripts="$HERE"
