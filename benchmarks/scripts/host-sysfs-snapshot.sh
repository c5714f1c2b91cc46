#!/usr/bin/env bash
# Host-wide sysfs snapshot against node_exporter's infiniband collector on the same tree,
# in the same run: writes benchmarks/results/host-sysfs-snapshot.md up to its hand-written
# "Reading of the figures" section, which it keeps.
#
# Usage, from the repository root:  benchmarks/scripts/host-sysfs-snapshot.sh [scrapes]
# Needs: a JDK 17, Maven, curl, python3, and node_exporter
#   (Debian: apt-get install -y prometheus-node-exporter).
set -euo pipefail

SCRAPES="${1:-200}"
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

echo "== tree"
ROOT="$(java -cp "$CP" io.github.rdmacounters.benchmarks.HostSysfsTree "$WORK/sys")"
echo "$ROOT: $(find "$WORK/sys/devices" -type f | wc -l) files"

echo "== node_exporter"
"$NODE_EXPORTER" --path.sysfs="$WORK/sys" --collector.disable-defaults --collector.infiniband \
	--web.listen-address="127.0.0.1:$PORT" >"$WORK/node_exporter.log" 2>&1 &
NE_PID=$!
for _ in $(seq 1 100); do
	if curl -sf "http://127.0.0.1:$PORT/metrics" -o /dev/null; then
		break
	fi
	sleep 0.1
done
curl -sf "http://127.0.0.1:$PORT/metrics" -o "$WORK/first.prom"

scrape() {
	# $1: output file of one collector duration per line
	for _ in $(seq 1 "$SCRAPES"); do
		curl -sf "http://127.0.0.1:$PORT/metrics" \
			| awk '/^node_scrape_collector_duration_seconds\{collector="infiniband"\}/ { print $2 }'
		sleep 0.01
	done >"$1"
}

echo "== node_exporter: $SCRAPES scrapes before the benchmark"
scrape "$WORK/ne-before.txt"
echo "== JMH: one snapshot per scrape, after a 10 ms pause"
java -cp "$CP" org.openjdk.jmh.Main HostSysfsScrapeBenchmark -p root="$ROOT" -f 1 -wi 50 -i 400 \
	-rf json -rff "$WORK/jmh-scrape.json" | tail -8
echo "== JMH: snapshots back to back"
java -cp "$CP" org.openjdk.jmh.Main HostSysfsSnapshotBenchmark -p root="$ROOT" -f 1 -wi 5 -i 10 -w 1s -r 1s \
	-prof gc -rf json -rff "$WORK/jmh.json" | tail -8
echo "== node_exporter: $SCRAPES scrapes after the benchmark"
scrape "$WORK/ne-after.txt"
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
kill "$NE_PID"
wait "$NE_PID" 2>/dev/null || true
NE_PID=""

python3 - "$WORK" "$RESULTS" "$SCRAPES" "$LOAD" "$("$NODE_EXPORTER" --version 2>&1 | head -1)" <<'PY'
import json, platform, statistics, sys
work, results, scrapes, load, ne_version = sys.argv[1:6]

def durations(name):
    with open(f"{work}/{name}") as f:
        return [float(line) * 1e6 for line in f if line.strip()]

def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]

before, after = durations("ne-before.txt"), durations("ne-after.txt")
both = before + after
first = open(f"{work}/first.prom").read().splitlines()
success = [l for l in first if l.startswith('node_scrape_collector_success{collector="infiniband"}')]
series = [l for l in first if l.startswith("node_infiniband_")]
names = sorted({l.split("{")[0].split(" ")[0] for l in series})
loop = {run["params"]["counters"]: run for run in json.load(open(f"{work}/jmh.json"))}
scrape = {run["params"]["counters"]: run for run in json.load(open(f"{work}/jmh-scrape.json"))}
any_run = next(iter(loop.values()))
jvm = f'{any_run["vmName"]} {any_run["jdkVersion"]}, JMH {any_run["jmhVersion"]}'

def ne_row(label, values):
    return (f"| {label} | {len(values)} | {statistics.mean(values):.0f} | {statistics.median(values):.0f} "
            f"| {q(values, 0.9):.0f} | {min(values):.0f} |")

def scrape_row(key, label):
    metric = scrape[key]["primaryMetric"]
    raw = [v for fork in metric["rawData"] for v in fork]
    return (f"| ours, {label} | {len(raw)} | {statistics.mean(raw):.0f} | {statistics.median(raw):.0f} "
            f"| {q(raw, 0.9):.0f} | {min(raw):.0f} |"), statistics.median(raw)

def loop_row(key, label):
    metric = loop[key]["primaryMetric"]
    alloc = loop[key]["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score")
    alloc_text = f"{alloc / 1024:.1f} KB" if alloc is not None else "n/a"
    return f"| `hostSnapshot`, {label} | {metric['score']:.0f} ± {metric['scoreError']:.0f} µs | {alloc_text} |"

pma_row, ours = scrape_row("pma", "`counters=pma`: the 21 `counters/` files per port node_exporter reads")
all_row, ours_all = scrape_row("all", "`counters=all`: every counter file, `hw_counters/` too")
ne_median = statistics.median(both)
lines = [
    "# Host-wide sysfs snapshot against node_exporter (`HostSysfsScrapeBenchmark`, `HostSysfsSnapshotBenchmark`)",
    "",
    "One read of every RDMA device of a host from sysfs: `SysfsHostPortCountersSource.snapshot()` with",
    "a cache time-to-live of 0 (the root is listed and every file read on each call) against the",
    "time node_exporter's infiniband collector takes on the same tree, in the same run",
    "(`node_scrape_collector_duration_seconds{collector=\"infiniband\"}` of each scrape).",
    "",
    "The tree (`HostSysfsTree`): 8 mlx5-like devices × 2 ports in the kernel's shapes",
    "(`class/infiniband/mlx5_<n>` a link to `devices/pci0000:00/<pci>/infiniband/mlx5_<n>`, a `device`",
    "link back to the PCI function with `net/<ifname>`); per device 4 information files, per port",
    "`state`, `phys_state`, `rate`, `link_layer`, 21 IB PMA `counters/` and 29 mlx5 `hw_counters/`",
    "(one of them the `lifespan` setting, not read as a counter). Each device's identity (PCI address,",
    "netdevs) is read on first sight only, so not in the measured snapshots.",
    f"node_exporter exported {len(series)} `node_infiniband_*` series ({len(names)} names) from the tree:",
    "it reads `counters/`, not `hw_counters/`, in this version;",
    f"collector success: `{success[0] if success else 'not reported'}`.",
    "`counters=pma` restricts our counter filter to the 21 `counters/` names, the same files.",
    "",
    "## Command",
    "",
    "From the repository root:",
    "",
    "```",
    f"benchmarks/scripts/host-sysfs-snapshot.sh {scrapes}",
    "```",
    "",
    "The script builds the benchmarks, writes the tree with `HostSysfsTree` into a temporary directory,",
    "starts node_exporter on it (`--path.sysfs=<tmp>/sys --collector.disable-defaults",
    "--collector.infiniband --web.listen-address=127.0.0.1:19100`), scrapes it "
    f"{scrapes} times (10 ms apart), runs",
    "`org.openjdk.jmh.Main HostSysfsScrapeBenchmark -p root=<tmp>/sys/class/infiniband -f 1 -wi 50 -i 400`",
    "(one snapshot per iteration after a 10 ms pause, as scrapes come) and",
    "`org.openjdk.jmh.Main HostSysfsSnapshotBenchmark -p root=<tmp>/sys/class/infiniband -f 1 -wi 5 -i 10",
    f"-w 1s -r 1s -prof gc` (back to back), scrapes {scrapes} times again, stops node_exporter and writes",
    "this file.",
    "",
    "## Results",
    "",
    f"{jvm}; {ne_version}; {platform.machine()}, load average {load} at the end.",
    "",
    "One read per scrape, after an idle gap (the like-for-like comparison):",
    "",
    "| Reader | Samples | Mean µs | Median µs | p90 µs | Min µs |",
    "|---|---|---|---|---|---|",
    ne_row("node_exporter infiniband collector, before JMH", before),
    ne_row("node_exporter infiniband collector, after JMH", after),
    pma_row,
    all_row,
    "",
    "Back to back (JMH average time, `-prof gc`):",
    "",
    "| Benchmark | Time per snapshot | Allocated per snapshot |",
    "|---|---|---|",
    loop_row("pma", "`counters=pma`"),
    loop_row("all", "`counters=all`"),
    "",
    f"Same files, one read per scrape: our median {ours:.0f} µs against node_exporter's median {ne_median:.0f} µs",
    f"(both phases), ratio {ours / ne_median:.2f} "
    + ("(not slower: target met)." if ours <= ne_median else "(slower: target missed)."),
    f"Every counter file, `hw_counters/` too: median {ours_all:.0f} µs, ratio {ours_all / ne_median:.2f}.",
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
