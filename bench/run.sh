#!/usr/bin/env bash
# Runs the interpreter4j benchmarks: builds what they need, then the harness. Progress goes to stderr; the last
# line of stdout is one JSON object, also written to bench/results/<timestamp>.json.
#   ./bench/run.sh            full run (1000 sessions, longer samples)
#   ./bench/run.sh --quick    a shorter run (under 3 minutes)
#   ./bench/run.sh --only repl_roundtrip,startup   some sections (also with --quick)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"

echo "bench: building (./mvnw -q -DskipTests package)..." >&2
./mvnw -q -B -DskipTests -Pbench package >&2

cp="$root/bench/target/classes:$(cat "$root/bench/target/classpath.txt")"
# a fixed heap floor keeps the heap-per-session figure from chasing the heap's own growth
exec java -Xms1g -XX:+UseG1GC -cp "$cp" io.interpreter4j.bench.BenchMain --root "$root" \
  --results "$root/bench/results" "$@"
