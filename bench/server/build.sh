#!/usr/bin/env bash
# Builds the bench server once per flavour: bench/server/build.sh [memory|h2|postgresql|mariadb ...] (default all).
# Each lands in bench/server/target/<flavour>/quarkus-app/quarkus-run.jar; run it with the same -Dquarkus.profile.
# Needs the extension installed first: ./mvnw -B -P '!it' install -DskipTests
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
flavours=("$@")
if [ ${#flavours[@]} -eq 0 ]; then
  flavours=(memory h2 postgresql mariadb)
fi

for flavour in "${flavours[@]}"; do
  case "$flavour" in
    memory | h2 | postgresql | mariadb) ;;
    *) echo "build.sh: unknown flavour '$flavour' (memory, h2, postgresql, mariadb)" >&2; exit 2 ;;
  esac
done

for flavour in "${flavours[@]}"; do
  start=$SECONDS
  # The profile selects the adapter, the datasource kind and the output directory (application.properties).
  "$root/mvnw" -B -q -f "$root/bench/server/pom.xml" package -Dquarkus.profile="$flavour"
  echo "built $flavour in $((SECONDS - start)) s: bench/server/target/$flavour/quarkus-app/quarkus-run.jar"
done
