#!/usr/bin/env bash
# Startup time and resident set size at 1,000 counter sets, the most the starter accepts:
# the application of MultiDeviceBenchmark on one simulated device of one port (Spring MVC on
# Tomcat, the actuator, Prometheus). Paired first starts in new JVMs with and without the
# starter (StartupComparison cold, the order alternating), then CostPerSet at 0 and 1,000
# sets (startup time, live heap after full collections, RSS), alternately. Prints a summary
# for benchmarks/results/cost-per-set.md.
#
# Usage, from the repository root:  benchmarks/scripts/thousand-sets.sh [pairs] [cost runs]
# Needs: a JDK 17, Maven and python3.
set -euo pipefail

PAIRS="${1:-10}"
RUNS="${2:-3}"
SETS=1000
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== build"
mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/bench-cp.txt)"

echo "== $PAIRS pairs of first starts with and without the starter, 1 device x 1 port x $SETS sets"
cut -d' ' -f1-3 /proc/loadavg >"$WORK/load.txt"
for i in $(seq 1 "$PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then order="false true"; else order="true false"; fi
	for starter in $order; do
		java -Xmx1g -cp "$CP" io.github.rdmacounters.benchmarks.StartupComparison cold "$starter" 1 1 "$SETS" \
			| grep '^cold'
	done
done | tee "$WORK/cold.txt"

echo "== $RUNS runs of CostPerSet at 0 and $SETS sets"
for i in $(seq 1 "$RUNS"); do
	for sets in 0 "$SETS"; do
		java -Xmx1g -cp "$CP" io.github.rdmacounters.benchmarks.CostPerSet 1 1 "$sets" | grep '^cost'
	done
done | tee "$WORK/cost.txt"
cut -d' ' -f1-3 /proc/loadavg >>"$WORK/load.txt"

python3 - "$WORK" "$PAIRS" "$RUNS" "$(java -version 2>&1 | head -1)" <<'PY'
import statistics, sys
work, pairs, runs, jvm = sys.argv[1:5]
lines = [line.split() for line in open(f"{work}/cold.txt")]
differences, without, with_ = [], [], []
for first, second in zip(lines[0::2], lines[1::2]):
    values = {first[2]: float(first[3]), second[2]: float(second[3])}
    without.append(values["starter=false"])
    with_.append(values["starter=true"])
    differences.append(values["starter=true"] - values["starter=false"])
differences.sort()
n = len(differences)
half = 0.98 * n ** 0.5
low, high = differences[max(0, int(n / 2 - half))], differences[min(n - 1, int(n / 2 + half))]
base, added = statistics.median(without), statistics.median(differences)
cost = {}
for line in open(f"{work}/cost.txt"):
    fields = dict(item.split("=") for item in line.split()[1:])
    cost.setdefault(int(fields["sets"]), []).append(fields)
load = [line.strip() for line in open(f"{work}/load.txt")]
print()
print(f"{jvm}; load average {load[0]} before, {load[-1]} after.")
print()
print("| 1 device x 1 port | median start without the starter | median start with | added per pair (95 % interval) | paired ratio |")
print("|---|---|---|---|---|")
print(f"| 1,000 sets, {n} pairs | {base:.0f} ms | {statistics.median(with_):.0f} ms | {added:.0f} ms ({low:.0f} to {high:.0f}) "
      f"| {1 + added / base:.2f} ({1 + low / base:.2f} to {1 + high / base:.2f}) |")
print()
print("| CostPerSet, 1 device x 1 port | runs | median start | median live heap | median RSS |")
print("|---|---|---|---|---|")
for sets in sorted(cost):
    runs_of = cost[sets]
    print(f"| {sets:,} sets | {len(runs_of)} | {statistics.median(float(r['start_ms']) for r in runs_of):.0f} ms "
          f"| {statistics.median(int(r['heap_bytes']) for r in runs_of) / 1e6:.1f} MB "
          f"| {statistics.median(int(r['rss_kb']) for r in runs_of) / 1e3:.1f} MB |")
PY
