#!/usr/bin/env bash
# Host-wide sysfs snapshot against node_exporter's infiniband collector on the same tree,
# in the same run: writes benchmarks/results/host-sysfs-snapshot.md up to its hand-written
# "Reading of the figures" section, which it keeps.
#
# Usage, from the repository root:  benchmarks/scripts/host-sysfs-snapshot.sh [scrapes]
# (SIZES="1 8 16" by default: one tree, node_exporter and JMH run per number of devices)
# Needs: a JDK 17, Maven, curl, python3, and node_exporter
#   (Debian: apt-get install -y prometheus-node-exporter).
set -euo pipefail

SCRAPES="${1:-200}"
SIZES="${SIZES:-1 8 16}"
PORT="${NODE_EXPORTER_PORT:-19100}"
NODE_EXPORTER="${NODE_EXPORTER:-$(command -v prometheus-node-exporter || command -v node_exporter || true)}"
if [ -z "$NODE_EXPORTER" ]; then
	echo "node_exporter not found: install it (apt-get install -y prometheus-node-exporter) or set NODE_EXPORTER" >&2
	exit 1
fi
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
RESULTS=benchmarks/results/host-sysfs-snapshot.md
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

run_size() {
	# $1: number of devices; writes $WORK/$1/{first.prom,ne-before.txt,ne-after.txt,jmh-scrape.json,jmh.json}
	local devices="$1" dir="$WORK/$1"
	mkdir -p "$dir"
	echo "== $devices devices: tree"
	ROOT="$(java -cp "$CP" io.github.rdmacounters.benchmarks.HostSysfsTree "$dir/sys" "$devices")"
	echo "$ROOT: $(find "$dir/sys/devices" -type f | wc -l) files"
	"$NODE_EXPORTER" --path.sysfs="$dir/sys" --collector.disable-defaults --collector.infiniband \
		--web.listen-address="127.0.0.1:$PORT" >"$dir/node_exporter.log" 2>&1 &
	NE_PID=$!
	for _ in $(seq 1 100); do
		if curl -sf "http://127.0.0.1:$PORT/metrics" -o /dev/null; then
			break
		fi
		sleep 0.1
	done
	curl -sf "http://127.0.0.1:$PORT/metrics" -o "$dir/first.prom"
	echo "== $devices devices: node_exporter, $SCRAPES scrapes before the benchmark"
	scrape "$dir/ne-before.txt"
	echo "== $devices devices: JMH, one snapshot per scrape after a 10 ms pause"
	java -cp "$CP" org.openjdk.jmh.Main HostSysfsScrapeBenchmark -p root="$ROOT" -p devices="$devices" \
		-f 1 -wi 50 -i 400 -rf json -rff "$dir/jmh-scrape.json" | tail -4
	echo "== $devices devices: JMH, snapshots back to back"
	java -cp "$CP" org.openjdk.jmh.Main HostSysfsSnapshotBenchmark -p root="$ROOT" -p devices="$devices" \
		-f 1 -wi 5 -i 10 -w 1s -r 1s -prof gc -rf json -rff "$dir/jmh.json" | tail -4
	echo "== $devices devices: node_exporter, $SCRAPES scrapes after the benchmark"
	scrape "$dir/ne-after.txt"
	kill "$NE_PID"
	wait "$NE_PID" 2>/dev/null || true
	NE_PID=""
}

scrape() {
	# $1: output file of one collector duration per line
	for _ in $(seq 1 "$SCRAPES"); do
		curl -sf "http://127.0.0.1:$PORT/metrics" \
			| awk '/^node_scrape_collector_duration_seconds\{collector="infiniband"\}/ { print $2 }'
		sleep 0.01
	done >"$1"
}

for devices in $SIZES; do
	run_size "$devices"
done
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK" "$RESULTS" "$SCRAPES" "$LOAD" "$("$NODE_EXPORTER" --version 2>&1 | head -1)" "$SIZES" <<'PY'
import json, platform, statistics, sys
work, results, scrapes, load, ne_version, sizes = sys.argv[1:7]
sizes = [int(size) for size in sizes.split()]

def durations(size, name):
    with open(f"{work}/{size}/{name}") as f:
        return [float(line) * 1e6 for line in f if line.strip()]

def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]

def raw(run):
    return [v for fork in run["primaryMetric"]["rawData"] for v in fork]

rows, loop_rows, verdicts, series_text = [], [], [], []
jvm = ""
for size in sizes:
    before, after = durations(size, "ne-before.txt"), durations(size, "ne-after.txt")
    ne_median = statistics.median(before + after)
    first = open(f"{work}/{size}/first.prom").read().splitlines()
    success = [l for l in first if l.startswith('node_scrape_collector_success{collector="infiniband"}')]
    series = [l for l in first if l.startswith("node_infiniband_")]
    series_text.append(f"{size}: {len(series)} series, `{success[0] if success else 'no success line'}`")
    scrape = {run["params"]["counters"]: run for run in json.load(open(f"{work}/{size}/jmh-scrape.json"))}
    loop = {run["params"]["counters"]: run for run in json.load(open(f"{work}/{size}/jmh.json"))}
    any_run = next(iter(loop.values()))
    jvm = f'{any_run["vmName"]} {any_run["jdkVersion"]}, JMH {any_run["jmhVersion"]}'
    pma, every = raw(scrape["pma"]), raw(scrape["all"])
    ours, ours_all = statistics.median(pma), statistics.median(every)
    ratio = ours / ne_median
    rows.append(f"| {size} | {statistics.median(before):.0f} / {statistics.median(after):.0f} | {ne_median:.0f} "
                f"| {ours:.0f} (p90 {q(pma, 0.9):.0f}) | **{ratio:.2f}** | {'met' if ratio <= 0.75 else 'missed'} "
                f"| {ours_all:.0f} | {ours_all / ne_median:.2f} | {1 - ours / ours_all:.0%} |")
    verdicts.append(ratio <= 0.75)
    for key in ("pma", "all"):
        metric = loop[key]["primaryMetric"]
        alloc = loop[key]["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score")
        alloc_text = f"{alloc / 1024:.1f} KB" if alloc is not None else "n/a"
        loop_rows.append(f"| {size} | `counters={key}` | {metric['score']:.0f} ± {metric['scoreError']:.0f} µs "
                         f"| {alloc_text} |")

lines = [
    "# Host-wide sysfs snapshot against node_exporter (`HostSysfsScrapeBenchmark`, `HostSysfsSnapshotBenchmark`)",
    "",
    "One read of every RDMA device of a host from sysfs: `SysfsHostPortCountersSource.snapshot()` with",
    "a cache time-to-live of 0 (the root is listed and every file read on each call) against the",
    "time node_exporter's infiniband collector takes on the same tree, in the same run",
    "(`node_scrape_collector_duration_seconds{collector=\"infiniband\"}` of each scrape), on trees of "
    + ", ".join(str(size) for size in sizes) + " devices.",
    "",
    "The tree (`HostSysfsTree`): mlx5-like devices × 2 ports in the kernel's shapes",
    "(`class/infiniband/mlx5_<n>` a link to `devices/pci0000:00/<pci>/infiniband/mlx5_<n>`, a `device`",
    "link back to the PCI function with `net/<ifname>`); per device 4 information files, per port",
    "`state`, `phys_state`, `rate`, `link_layer`, 21 IB PMA `counters/` and 29 mlx5 `hw_counters/`",
    "(one of them the `lifespan` setting, not read as a counter). Each device's identity (PCI address,",
    "netdevs) is read on first sight only, so not in the measured snapshots.",
    "node_exporter reads `counters/`, not `hw_counters/`, in this version; what it exported per size: "
    + "; ".join(series_text) + ".",
    "`counters=pma` is our source with the counter filter of the 21 `counters/` names (what",
    "`rdma.port-counters.include` of those names now gives the host source): the same files as",
    "node_exporter; `counters=all` reads every counter file, `hw_counters/` too.",
    "",
    "## Command",
    "",
    "From the repository root:",
    "",
    "```",
    f"SIZES=\"{' '.join(str(size) for size in sizes)}\" benchmarks/scripts/host-sysfs-snapshot.sh {scrapes}",
    "```",
    "",
    "For each size the script writes the tree with `HostSysfsTree <tmp>/sys <devices>`, starts",
    "node_exporter on it (`--path.sysfs=<tmp>/sys --collector.disable-defaults --collector.infiniband",
    f"--web.listen-address=127.0.0.1:19100`), scrapes it {scrapes} times (10 ms apart), runs",
    "`org.openjdk.jmh.Main HostSysfsScrapeBenchmark -p root=<tmp>/sys/class/infiniband -p devices=<n>",
    "-f 1 -wi 50 -i 400` (one snapshot per iteration after a 10 ms pause, as scrapes come) and",
    "`org.openjdk.jmh.Main HostSysfsSnapshotBenchmark -p root=... -p devices=<n> -f 1 -wi 5 -i 10 -w 1s",
    f"-r 1s -prof gc` (back to back), scrapes {scrapes} times again and stops node_exporter; then it",
    "writes this file.",
    "",
    "## Results",
    "",
    f"{jvm}; {ne_version}; {platform.machine()}, load average {load} at the end.",
    "",
    "One read per scrape, after an idle gap (the like-for-like comparison), medians in µs; the target",
    "is our snapshot of the same files at most 0.75 times node_exporter's collector at every size:",
    "",
    "| Devices | node_exporter before / after JMH | node_exporter, both | ours, `counters=pma` | ratio | ≤ 0.75 "
    "| ours, `counters=all` | ratio | saved by the filter |",
    "|---|---|---|---|---|---|---|---|---|",
    *rows,
    "",
    "Back to back (JMH average time, `-prof gc`):",
    "",
    "| Devices | Counters | Time per snapshot | Allocated per snapshot |",
    "|---|---|---|---|",
    *loop_rows,
    "",
    ("Target met at every size." if all(verdicts) else
     "Target missed at " + ", ".join(str(size) for size, ok in zip(sizes, verdicts) if not ok) + " devices."),
]
# keep the hand-written section after the figures, if the file has one
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
