#!/usr/bin/env bash
# Encode-once fan-out benchmark (JMH, CPU only, no services): about 6 minutes -> bench/results/encoding.md
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [ "${BENCH_SKIP_INSTALL:-0}" != 1 ]; then
  ./mvnw -B -q -pl runtime -am install -DskipTests
fi
./mvnw -B -q -f bench/pom.xml package -DskipTests
cd bench
"$JAVA_HOME/bin/java" -cp "target/quarkus-cable-bench.jar:target/lib/*" io.quarkiverse.cable.bench.EncodingMain
