#!/usr/bin/env bash
# Startup time the starter adds: writes benchmarks/results/startup.md up to its
# hand-written "Reading of the figures" section, which it keeps.
#
# Usage, from the repository root:
#   benchmarks/scripts/startup.sh [warm rounds] [cold pairs] [cold pairs with narrowed port counters]
# Needs: a JDK 17, Maven and python3.
set -euo pipefail

ROUNDS="${1:-20}"
PAIRS="${2:-20}"
WARMUP=30
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
RESULTS=benchmarks/results/startup.md
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# the first start in a new JVM of two applications: a typical one (1 device, 1 port,
# 2 counter sets) and a large host (8 devices x 2 ports x 8 sets each, 64 sets)
SCENARIOS=("typical 1 1 2" "large 8 2 8")

echo "== build"
mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/bench-cp.txt)"
MAIN=io.github.rdmacounters.benchmarks.StartupComparison

echo "== warm: $ROUNDS rounds after $WARMUP warm-up rounds, 1, 8 and 16 devices"
java -Xmx1g -cp "$CP" "$MAIN" warm "$ROUNDS" "$WARMUP" 1 8 16 | grep '^warm' | tee "$WORK/warm.txt"

for scenario in "${SCENARIOS[@]}"; do
	read -r name devices ports sets <<<"$scenario"
	echo "== cold, $name: $PAIRS pairs of first starts in new JVMs, $devices devices x $ports ports x $sets sets"
	for i in $(seq 1 "$PAIRS"); do
		if [ $((i % 2)) -eq 1 ]; then order="false true"; else order="true false"; fi
		for starter in $order; do
			java -Xmx1g -cp "$CP" "$MAIN" cold "$starter" "$devices" "$ports" "$sets" | grep '^cold'
		done
	done | tee "$WORK/cold-$name.txt"
done
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK" "$RESULTS" "$ROUNDS" "$WARMUP" "$PAIRS" "$LOAD" "$(java -version 2>&1 | head -1)" <<'PY'
import re, statistics, sys
work, results, rounds, warmup, pairs, load, jvm = sys.argv[1:8]
warm = []
for line in open(f"{work}/warm.txt"):
    fields = dict(item.split("=") for item in line.split()[1:])
    warm.append(fields)
def paired(path):
    """The starts of a file of pairs: by starter, and the difference within each pair."""
    cold = {"false": [], "true": []}
    differences = []
    lines = [line.split() for line in open(path)]
    for line in lines:
        cold[line[2].split("=")[1]].append(float(line[3]))
    # the two starts of a pair ran one after the other: their difference is less exposed
    # to the machine's speed, which drifts over minutes, than the difference of medians
    for first, second in zip(lines[0::2], lines[1::2]):
        values = {first[2]: float(first[3]), second[2]: float(second[3])}
        differences.append(values["starter=true"] - values["starter=false"])
    differences.sort()
    n = len(differences)
    # distribution-free 95 % interval of the median difference: order statistics of a
    # binomial(n, 1/2), normal approximation
    half = 0.98 * n ** 0.5
    low = differences[max(0, int(n / 2 - half))]
    high = differences[min(n - 1, int(n / 2 + half))]
    return cold, statistics.median(differences), low, high

out = []
out.append("# Startup time added by the starter (`StartupComparison`)\n")
out.append("The application of `MultiDeviceBenchmark`: simulated devices with counter sets")
out.append("(`rdma.counter-sets.<set>.device`), the actuator with health and Micrometer with Prometheus,")
out.append("with the starter and without it (`rdma.enabled=false`, every auto-configuration of the starter")
out.append("off). `web=servlet` adds Spring MVC on Tomcat on a random loopback port with the health,")
out.append("prometheus and rdma endpoints over HTTP, the application users run the starter in;")
out.append("`web=none` has no web server.\n")
out.append("## Command\n")
out.append("From the repository root:\n")
out.append("```")
out.append(f"benchmarks/scripts/startup.sh {rounds} {pairs}")
out.append("```\n")
out.append(f"Cold (the target): the first start in a new JVM, class loading included, web application, {pairs} JVMs")
out.append("with and as many without the starter, alternately; the paired ratio is 1 + the median of the")
out.append("differences within each pair (the two starts one after the other) over the median start without")
out.append("the starter, with a distribution-free 95 % interval. Warm: in one JVM (`-Xmx1g`), per device count")
out.append(f"and web type, {warmup} warm-up rounds then {rounds} measured rounds of one start with and one without the")
out.append("starter (8 sets per device, 2 ports), in alternating order (ABBA); the median of each.\n")
out.append("## Results\n")
out.append(f"{jvm}; load average {load} at the end.\n")
out.append("First start in a new JVM, web application (ms):\n")
out.append("| application | devices × ports × sets per device | median without | median with | added per pair (95 % interval) | paired ratio (95 % interval) |")
out.append("|---|---|---|---|---|---|")
for name, shape in (("typical", "1 × 1 × 2"), ("large", "8 × 2 × 8")):
    cold, median_pair, low, high = paired(f"{work}/cold-{name}.txt")
    base, starter = statistics.median(cold["false"]), statistics.median(cold["true"])
    out.append(f"| {name} | {shape} | {base:.0f} | {starter:.0f} | {median_pair:.0f} ms ({low:.0f} to {high:.0f}) | "
               f"{1 + median_pair / base:.3f} ({1 + low / base:.3f} to {1 + high / base:.3f}) |")
out.append("")
out.append("Warm JVM (median ms per start):\n")
out.append("| web | devices | without starter | with starter | added ms | ratio |")
out.append("|---|---|---|---|---|---|")
for w in warm:
    out.append(f"| {w['web']} | {w['devices']} | {float(w['without']):.1f} | {float(w['with']):.1f} | {float(w['added']):.1f} | {float(w['ratio']):.3f} |")
out.append("")
old = open(results).read() if __import__("os").path.exists(results) else ""
marker = "## Reading of the figures"
kept = old[old.index(marker):] if marker in old else marker + "\n\n(Written by hand after a run; the script rewrites only the sections before this one.)\n"
open(results, "w").write("\n".join(out) + "\n" + kept)
PY
echo "== wrote $RESULTS"
