#!/usr/bin/env bash
# Startup time the starter adds: writes benchmarks/results/startup.md up to its
# hand-written "Reading of the figures" section, which it keeps.
#
# Usage, from the repository root:
#   benchmarks/scripts/startup.sh [warm rounds] [cold pairs] [cold pairs with narrowed port counters]
# Needs: a JDK 17, Maven and python3.
set -euo pipefail

ROUNDS="${1:-20}"
PAIRS="${2:-10}"
NARROW_PAIRS="${3:-$((PAIRS / 2))}"
# the 11 port_* counters of counters/ (data, packets, errors, discards, wait), none of hw_counters/
NARROW="rdma.port-counters.include=port_*"
WARMUP=30
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
RESULTS=benchmarks/results/startup.md
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== build"
mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/bench-cp.txt)"
MAIN=io.github.rdmacounters.benchmarks.StartupComparison

echo "== warm: $ROUNDS rounds after $WARMUP warm-up rounds, 1, 8 and 16 devices"
java -Xmx1g -cp "$CP" "$MAIN" warm "$ROUNDS" "$WARMUP" 1 8 16 | grep '^warm' | tee "$WORK/warm.txt"

echo "== cold: $PAIRS pairs of first starts in new JVMs, 8 devices, web application"
for i in $(seq 1 "$PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then order="false true"; else order="true false"; fi
	for starter in $order; do
		java -Xmx1g -cp "$CP" "$MAIN" cold "$starter" 8 | grep '^cold'
	done
done | tee "$WORK/cold.txt"

echo "== cold: $NARROW_PAIRS pairs with $NARROW"
for i in $(seq 1 "$NARROW_PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then order="false true"; else order="true false"; fi
	for starter in $order; do
		java -Xmx1g -cp "$CP" "$MAIN" cold "$starter" 8 "$NARROW" | grep '^cold'
	done
done | tee "$WORK/cold-narrow.txt"
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK" "$RESULTS" "$ROUNDS" "$WARMUP" "$PAIRS" "$LOAD" "$(java -version 2>&1 | head -1)" "$NARROW_PAIRS" "$NARROW" <<'PY'
import re, statistics, sys
work, results, rounds, warmup, pairs, load, jvm, narrow_pairs, narrow = sys.argv[1:10]
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

cold, median_pair, low, high = paired(f"{work}/cold.txt")
narrow_cold, narrow_pair, narrow_low, narrow_high = paired(f"{work}/cold-narrow.txt")
out = []
out.append("# Startup time added by the starter (`StartupComparison`)\n")
out.append("The application of `MultiDeviceBenchmark`: simulated devices × 2 ports × 8 counter sets")
out.append("(`rdma.devices.<name>.counter-sets`), the actuator with health and Micrometer with Prometheus,")
out.append("with the starter and without it (`rdma.enabled=false`, every auto-configuration of the starter")
out.append("off). `web=servlet` adds Spring MVC on Tomcat on a random loopback port with the health,")
out.append("prometheus and rdma endpoints over HTTP, the application users run the starter in;")
out.append("`web=none` has no web server.\n")
out.append("## Command\n")
out.append("From the repository root:\n")
out.append("```")
out.append(f"benchmarks/scripts/startup.sh {rounds} {pairs} {narrow_pairs}")
out.append("```\n")
out.append(f"Warm: in one JVM (`-Xmx1g`), per device count and web type, {warmup} warm-up rounds then {rounds}")
out.append("measured rounds of one start with and one without the starter, in alternating order (ABBA),")
out.append("each context closed outside the measured time; the median of each. Cold: the first start in a")
out.append(f"new JVM, class loading included, {pairs} JVMs with and {pairs} without, alternately; the median of each,")
out.append(f"and of the difference within each pair. Then {narrow_pairs} pairs more with `{narrow}`: the port")
out.append("counters named `port_*` only: 11 of the 21 of `counters/`, none of `hw_counters/`, so fewer meters.\n")
out.append("## Results\n")
out.append(f"{jvm}; load average {load} at the end.\n")
out.append("Warm JVM (median ms per start):\n")
out.append("| web | devices | without starter | with starter | added ms | ratio |")
out.append("|---|---|---|---|---|---|")
for w in warm:
    out.append(f"| {w['web']} | {w['devices']} | {float(w['without']):.1f} | {float(w['with']):.1f} | {float(w['added']):.1f} | {float(w['ratio']):.3f} |")
out.append("")
base, starter = statistics.median(cold["false"]), statistics.median(cold["true"])
out.append("First start in a new JVM, 8 devices, web application (ms):\n")
out.append("| | starts | median | min | max |")
out.append("|---|---|---|---|---|")
for name, values in (("without starter", cold["false"]), ("with starter", cold["true"])):
    out.append(f"| {name} | {len(values)} | {statistics.median(values):.0f} | {min(values):.0f} | {max(values):.0f} |")
out.append("")
out.append(f"Cold, 8 devices: added {starter - base:.0f} ms, ratio {starter / base:.3f} (medians of each).")
out.append(f"Per pair (with minus without, the two starts one after the other): median {median_pair:.0f} ms,")
out.append(f"95 % interval {low:.0f} to {high:.0f} ms; ratio {1 + median_pair / base:.3f} "
           f"({1 + low / base:.3f} to {1 + high / base:.3f}).\n")
narrow_base = statistics.median(narrow_cold["false"])
out.append(f"With `{narrow}`, {narrow_pairs} pairs: without starter median {narrow_base:.0f} ms, "
           f"with {statistics.median(narrow_cold['true']):.0f} ms;")
out.append(f"per pair median {narrow_pair:.0f} ms, 95 % interval {narrow_low:.0f} to {narrow_high:.0f} ms; "
           f"ratio {1 + narrow_pair / narrow_base:.3f} ({1 + narrow_low / narrow_base:.3f} to "
           f"{1 + narrow_high / narrow_base:.3f}).\n")
old = open(results).read() if __import__("os").path.exists(results) else ""
marker = "## Reading of the figures"
kept = old[old.index(marker):] if marker in old else marker + "\n\n(Written by hand after a run; the script rewrites only the sections before this one.)\n"
open(results, "w").write("\n".join(out) + "\n" + kept)
PY
echo "== wrote $RESULTS"
