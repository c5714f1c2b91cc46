#!/usr/bin/env bash
# What a counter set and a port cost: startup time, live heap after full collections and
# resident set size of the application of MultiDeviceBenchmark (simulated backend, Spring
# MVC, actuator, Prometheus) at 0 and 1,000 sets (the most the starter accepts) and at 1 and
# 64 ports, each in a JVM of its own (CostPerSet). Prints one line per run and writes the
# class histograms (GC.class_histogram) of the runs marked below to $OUT (default: a
# temporary directory). benchmarks/scripts/thousand-sets.sh times the 1,000-set start paired
# with the same start without the starter.
#
# Usage, from the repository root:  benchmarks/scripts/cost-per-set.sh
# Needs: a JDK 17, Maven.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
OUT="${OUT:-$(mktemp -d)}"
echo "== build"
mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/bench-cp.txt)"
MAIN=io.github.rdmacounters.benchmarks.CostPerSet

run() {
	# $1: label, $2: soft references kept (default) or cleared at each collection (cleared)
	local label="$1" soft="$2"
	shift 2
	local flags=(-Xmx2g)
	if [ "$soft" = cleared ]; then
		flags+=(-XX:SoftRefLRUPolicyMSPerMB=0)
	fi
	echo "$(cut -d' ' -f1-3 /proc/loadavg) | $label soft=$soft | $(java "${flags[@]}" -cp "$CP" "$MAIN" "$@" 2>/dev/null | grep '^cost')"
}

# sets: one device of one port, 0 and 1,000 sets
for soft in default cleared; do
	run sets "$soft" 1 1 0 "$OUT/histogram-0-$soft.txt"
	run sets "$soft" 1 1 1000 "$OUT/histogram-1000-$soft.txt"
done
# ports: 1 device of 1 port against 32 devices of 2 ports, no sets
for soft in default cleared; do
	run ports "$soft" 1 1 0
	run ports "$soft" 32 2 0 "$OUT/histogram-64-ports-$soft.txt"
done
echo "histograms in $OUT"
