#!/usr/bin/env bash
# The native sources stage: every native build step of Quarkus and of the extension, on the demo application with
# PostgreSQL, without a native-image toolchain. `-Dquarkus.native.sources-only=true` runs the whole augmentation of a
# native build (reflection, resource and proxy registration, static-init recording, substitutions' build steps) and
# writes the native-image inputs to integration-tests/target/native-sources, then stops before calling native-image,
# which no machine of this project has (no GraalVM or Mandrel, no container runtime).
#
# Fails when:
#   - the Maven build fails (a build step threw, a validation error, a failed recording);
#   - Quarkus logs a WARNING or ERROR during the augmentation, except the known benign lines allowed below;
#   - the native-image inputs miss what the extension must register: the PostgreSQL DDL script (read at startup when
#     quarkus.cable.schema creates the tables) and every channel class (ChannelRegistry loads them by name).
#
# Usage: integration-tests/src/test/scripts/native-sources.sh [extra Maven arguments, e.g. -Dmaven.repo.local=...]
# About 2 minutes on 2 cores (the install of runtime, runtime-dev and deployment included).
set -euo pipefail

cd "$(dirname "$0")/../../../.."
log=integration-tests/target/native-sources.log
sources=integration-tests/target/native-sources
mkdir -p integration-tests/target
rm -rf "$sources"

start=$(date +%s)
if ! ./mvnw -B install -DskipTests -Dnative -Dquarkus.native.sources-only=true -Pdb-postgresql \
    -pl integration-tests -am "$@" >"$log" 2>&1; then
  tail -80 "$log"
  echo "native sources: the Maven build failed (full log: $log)" >&2
  exit 1
fi
echo "native sources: build took $(($(date +%s) - start)) s"

# Quarkus's own log lines carry the logger in brackets ("[WARNING] [io.quarkus....]"); javac's deprecation warnings
# and the Maven plugin's advice ("[WARNING] /path/File.java", "[WARNING] The Maven extensions ...") do not, and are
# not native build-step findings.
#
# Allowed: the native source jar meets the Hibernate-enhanced copy of a JPA entity that comes from a dependency twice
# (once as a generated class, once as a transformed class) and keeps the first, the enhanced one. Quarkus's own
# PanacheEntity shows the same line; the cable's two entities come through AdditionalJpaModelBuildItem the same way.
# Checked: the kept CableMessageEntity carries Hibernate's $$_hibernate_ fields and Panache's static methods.
allowed="Duplicate entry 'io/(quarkiverse/cable/entity/Cable(Channel|Message)Entity|quarkus/hibernate/orm/panache/PanacheEntity)\.class': already added from 'Unknown source', ignoring entry from 'Current application'"
findings=$(grep -E '^\[(WARNING|ERROR)\] \[' "$log" | grep -Ev "$allowed" || true)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "native sources: Quarkus reported the warnings or errors above during the native build steps (full log: $log)" >&2
  exit 1
fi

runner=$(ls "$sources"/*-runner.jar 2>/dev/null | head -1)
if [ -z "$runner" ] || [ ! -s "$sources/native-image.args" ]; then
  echo "native sources: $sources lacks the runner jar or native-image.args" >&2
  exit 1
fi
config=integration-tests/target/native-sources-config
rm -rf "$config"
mkdir -p "$config"
unzip -q -o "$runner" 'META-INF/native-image/*' -d "$config"
resources="$config/META-INF/native-image/resource-config.json"
reflection="$config/META-INF/native-image/reflect-config.json"

missing=0
if ! grep -q 'quarkus-cable/ddl/postgresql\.sql' "$resources"; then
  echo "native sources: META-INF/quarkus-cable/ddl/postgresql.sql is not registered as a native resource" >&2
  missing=1
fi
# Every @CableChannel class of the demo, by its source file: package + class name.
channels=$(grep -rl '^@CableChannel' integration-tests/src/main/java | while read -r file; do
  package=$(sed -n 's/^package \(.*\);/\1/p' "$file")
  echo "$package.$(basename "$file" .java)"
done)
if [ -z "$channels" ]; then
  echo "native sources: found no @CableChannel class in integration-tests/src/main/java to check" >&2
  missing=1
fi
for channel in $channels io.quarkiverse.cable.runtime.actioncable.TurboStreamsChannel; do
  if ! grep -q "\"name\" *: *\"$channel\"" "$reflection"; then
    echo "native sources: channel class $channel is not registered for reflection" >&2
    missing=1
  fi
done
[ "$missing" = 0 ] || exit 1
echo "native sources: OK ($(echo "$channels" | wc -l) channel classes and the PostgreSQL DDL registered;" \
  "inputs in $sources)"
