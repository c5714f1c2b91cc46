#!/usr/bin/env bash
# Where the starter's part of a first start goes, in CPU time of the main thread, which a
# shared machine's load barely moves (unlike wall time): N pairs of cold starts of the
# application of MultiDeviceBenchmark, one without the starter (rdma.enabled=false) and one
# with it, alternately (StartupCpuSteps, one JVM each). Prints the medians of the wall time
# and of the main thread's CPU time with and without the starter, the median of the
# differences within each pair, and the Spring startup steps whose own CPU time the starter
# raises most (median with, median without, their difference). The outputs of the runs stay
# in $OUT (default: a temporary directory).
#
# Usage, from the repository root:  benchmarks/scripts/startup-cpu-steps.sh [pairs] [devices ports sets]
#   (default: 10 pairs of the typical application, 1 device × 1 port × 2 sets)
# SKIP_BUILD=1 runs what is built. Needs: a JDK 17, Maven, bc.
set -euo pipefail

PAIRS="${1:-10}"
DEVICES="${2:-1}"
PORTS="${3:-1}"
SETS="${4:-2}"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
OUT="${OUT:-$(mktemp -d)}"
if [ -z "${SKIP_BUILD:-}" ]; then
	echo "== build"
	mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
		-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
fi
CP="benchmarks/target/classes:$(cat benchmarks/target/bench-cp.txt)"

echo "== $PAIRS pairs of $DEVICES × $PORTS × $SETS, runs in $OUT"
for i in $(seq 1 "$PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then order="false true"; else order="true false"; fi
	for starter in $order; do
		java -Xmx1g -cp "$CP" io.github.rdmacounters.benchmarks.StartupCpuSteps "$starter" "$DEVICES" "$PORTS" \
			"$SETS" >"$OUT/$starter-$i.txt" 2>/dev/null
	done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for key in start maincpu; do
	without=$(cat "$OUT"/false-*.txt | awk -v k="$key" '$1 == k { print $2 }' | median)
	with=$(cat "$OUT"/true-*.txt | awk -v k="$key" '$1 == k { print $2 }' | median)
	added=$(for i in $(seq 1 "$PAIRS"); do
		a=$(awk -v k="$key" '$1 == k { print $2 }' "$OUT/false-$i.txt")
		b=$(awk -v k="$key" '$1 == k { print $2 }' "$OUT/true-$i.txt")
		echo "$b - $a" | bc
	done | median)
	echo "$key: median without $without ms, with $with ms, added per pair (median) $added ms"
done

echo "== steps: own main-thread CPU ms, median with, median without, difference (largest 25)"
steps() {
	# $1: false or true; one line per step and run: name<TAB>ms (0 where a run lacks it)
	cat "$OUT"/"$1"-*.txt | awk '$1 != "start" && $1 != "maincpu" { v = $1; $1 = ""; print substr($0, 2) "\t" v }'
}
names=$( (steps false; steps true) | cut -f1 | sort -u)
while IFS= read -r name; do
	with=$(steps true | awk -F'\t' -v n="$name" '$1 == n { print $2 }' | median)
	without=$(steps false | awk -F'\t' -v n="$name" '$1 == n { print $2 }' | median)
	printf '%9.1f %9.1f %9.1f  %s\n' "$with" "$without" "$(echo "$with - $without" | bc)" "$name"
done <<<"$names" | sort -k3 -rn | head -25
