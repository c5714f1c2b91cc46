#!/usr/bin/env bash
# The time the starter adds to GET /actuator/prometheus per 2-port device against
# node_exporter's infiniband collector on the same tree, paired and interleaved
# (PrometheusVersusNodeExporter): writes benchmarks/results/prometheus-vs-node-exporter.md
# up to its hand-written "Reading of the figures" section, which it keeps.
#
# Usage, from the repository root:  benchmarks/scripts/prometheus-vs-node-exporter.sh [rounds]
# (SIZES="1 8 16" by default)
# Needs: a JDK 17, Maven, curl, python3, and node_exporter
#   (Debian: apt-get install -y prometheus-node-exporter).
set -euo pipefail

ROUNDS="${1:-100}"
SIZES="${SIZES:-1 8 16}"
PORT="${NODE_EXPORTER_PORT:-19100}"
NODE_EXPORTER="${NODE_EXPORTER:-$(command -v prometheus-node-exporter || command -v node_exporter || true)}"
if [ -z "$NODE_EXPORTER" ]; then
	echo "node_exporter not found: install it (apt-get install -y prometheus-node-exporter) or set NODE_EXPORTER" >&2
	exit 1
fi
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
RESULTS=benchmarks/results/prometheus-vs-node-exporter.md
WORK="$(mktemp -d)"
NE_PID=""
cleanup() {
	if [ -n "$NE_PID" ]; then
		kill "$NE_PID" 2>/dev/null || true
		wait "$NE_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT

echo "== build"
mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/bench-cp.txt)"

for devices in $SIZES; do
	dir="$WORK/$devices"
	mkdir -p "$dir"
	java -cp "$CP" io.github.rdmacounters.benchmarks.HostSysfsTree "$dir/sys" "$devices" >/dev/null
	"$NODE_EXPORTER" --path.sysfs="$dir/sys" --collector.disable-defaults --collector.infiniband \
		--web.listen-address="127.0.0.1:$PORT" >"$dir/node_exporter.log" 2>&1 &
	NE_PID=$!
	for _ in $(seq 1 100); do
		if curl -sf "http://127.0.0.1:$PORT/metrics" -o /dev/null; then
			break
		fi
		sleep 0.1
	done
	echo "== $devices devices: $ROUNDS paired rounds"
	cut -d' ' -f1-3 /proc/loadavg >"$dir/load.txt"
	java -Xmx512m -cp "$CP" io.github.rdmacounters.benchmarks.PrometheusVersusNodeExporter "$dir/sys" \
		"http://127.0.0.1:$PORT/metrics" "$ROUNDS" pma >"$dir/rounds.txt" 2>"$dir/app.log"
	cut -d' ' -f1-3 /proc/loadavg >>"$dir/load.txt"
	kill "$NE_PID"
	wait "$NE_PID" 2>/dev/null || true
	NE_PID=""
done

python3 - "$WORK" "$RESULTS" "$ROUNDS" "$SIZES" "$("$NODE_EXPORTER" --version 2>&1 | head -1)" "$(java -version 2>&1 | head -1)" <<'PY'
import statistics, sys
work, results, rounds, sizes, ne_version, jvm = sys.argv[1:7]
sizes = [int(size) for size in sizes.split()]

def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]

rows, verdicts = [], []
for size in sizes:
    r = [list(map(float, line.split())) for line in open(f"{work}/{size}/rounds.txt") if line.strip()]
    loads = [line.strip() for line in open(f"{work}/{size}/load.txt")]
    added = [(w - wo) / size for w, wo, c, t in r]
    collector = [c / size for w, wo, c, t in r]
    ratios = [(w - wo) / c for w, wo, c, t in r]
    ratio = statistics.median(ratios)
    verdicts.append(ratio <= 1)
    rows.append(f"| {size} | {statistics.median(x[0] for x in r):.0f} | {statistics.median(x[1] for x in r):.0f} "
                f"| {statistics.median(added):.0f} | {statistics.median(collector):.0f} "
                f"| {statistics.median(x[3] for x in r) / size:.0f} | **{ratio:.2f}** ({q(ratios, 0.25):.2f} to "
                f"{q(ratios, 0.75):.2f}) | {'met' if ratio <= 1 else 'missed'} | {loads[0]} / {loads[-1]} |")

lines = [
    "# `/actuator/prometheus` per device against node_exporter (`PrometheusVersusNodeExporter`)",
    "",
    "The time the starter adds to `GET /actuator/prometheus` per 2-port device, against the time",
    "node_exporter's infiniband collector takes per device on the same sysfs tree (`HostSysfsTree`,",
    "the tree of [`host-sysfs-snapshot.md`](host-sysfs-snapshot.md)), paired and interleaved.",
    "Two applications run in one JVM (Spring MVC on Tomcat, the actuator, Micrometer with",
    "Prometheus): one with the starter on the native backend reading the tree",
    "(`rdma.port-counters.sysfs-root`, the include of the 21 `counters/` files node_exporter reads,",
    "read cache time-to-live 100 ms, the least allowed, shorter than the time between its scrapes so",
    "that each scrape reads the tree; the ethtool statistics and RDMA netlink off, as the collector",
    "has neither), one without it (`rdma.enabled=false`). The tree is on ext4, so",
    "the application is given the host source the auto-configuration makes over a tree that keeps",
    "its files open, as the source reads sysfs. Each round scrapes both applications and",
    "node_exporter, each after a 40 ms pause, the order turning from round to round; the scrapes are",
    "timed from the request to the last byte. The starter adds (with − without) of the same round;",
    "node_exporter's time is its own `node_scrape_collector_duration_seconds{collector=\"infiniband\"}`",
    "(reading the tree, without its HTTP and text rendering). After 1,000 scrapes of each",
    "application back to back and 50 rounds of warm-up.",
    "",
    "## Command",
    "",
    "From the repository root:",
    "",
    "```",
    f"SIZES=\"{' '.join(str(size) for size in sizes)}\" benchmarks/scripts/prometheus-vs-node-exporter.sh {rounds}",
    "```",
    "",
    "For each size: `HostSysfsTree <tmp>/sys <devices>`, node_exporter on it",
    "(`--path.sysfs=<tmp>/sys --collector.disable-defaults --collector.infiniband`), then",
    f"`PrometheusVersusNodeExporter <tmp>/sys http://127.0.0.1:19100/metrics {rounds} pma`.",
    "",
    "## Results",
    "",
    f"{jvm}; {ne_version}; 2 cores shared with other builds.",
    "",
    "Medians over the rounds, µs; the ratio is the median of the per-round ratios (added by the",
    "starter / node_exporter's collector) with its quartiles; the target is at most 1:",
    "",
    "| Devices | with the starter | without | added per device | node_exporter collector per device "
    "| node_exporter whole scrape per device | ratio (quartiles) | ≤ 1 | load average before / after |",
    "|---|---|---|---|---|---|---|---|---|",
    *rows,
    "",
    ("Target met at every size." if all(verdicts) else
     "Target missed at " + ", ".join(str(size) for size, ok in zip(sizes, verdicts) if not ok) + " devices."),
]
kept = ""
try:
    with open(results) as f:
        previous = f.read()
    start = previous.find("\n## Reading of the figures")
    if start >= 0:
        kept = previous[start:]
except FileNotFoundError:
    pass
with open(results, "w") as f:
    f.write("\n".join(lines) + "\n" + kept)
print("\n".join(lines))
PY
