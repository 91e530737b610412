#!/usr/bin/env bash
# The soak (not in CI): N minutes (default 10, at most 120) of mixed load on two nodes (separate processes) against
# a PostgreSQL cluster of its own on port 5433 (created by integration-tests/src/test/scripts/fault-postgres.sh; the
# main server on 5432 is never touched), with random database stops, crashes, terminated sessions and client
# replacements. Ends with the account: sent, committed, failed, delivered per client; lost, duplicated, out of order.
#
#   bench/run-soak.sh [minutes] [seed]
#
# Needs PostgreSQL's cluster tools (pg_createcluster, pg_ctlcluster) and permission to run them (root or postgres).
set -euo pipefail

MINUTES=${1:-10}
SEED=${2:-$RANDOM$RANDOM}
if ! [[ "$MINUTES" =~ ^[0-9]+$ ]] || [ "$MINUTES" -lt 1 ] || [ "$MINUTES" -gt 120 ]; then
  echo "minutes must be between 1 and 120" >&2
  exit 2
fi
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
cd "$(dirname "$0")/.."
bash integration-tests/src/test/scripts/fault-postgres.sh setup
./mvnw -B install -Pdb-postgresql -pl integration-tests -am \
  -Dtest=NoUnitTests -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=SoakIT -Dsoak.minutes="$MINUTES" -Dsoak.seed="$SEED" \
  -Dfailsafe.timeout=$(( (MINUTES + 10) * 60 )) 2>&1 | tee target-soak.log | grep -E 'SoakIT|^  c[0-9]|Tests run|BUILD|ERROR'
