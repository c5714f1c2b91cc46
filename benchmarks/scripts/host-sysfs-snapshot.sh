#!/usr/bin/env bash
# Host-wide sysfs snapshot against node_exporter's infiniband collector on the same tree,
# paired and interleaved (HostSysfsVersusNodeExporter): writes benchmarks/results/host-sysfs-snapshot.md up to its hand-written
# "Reading of the figures" section, which it keeps.
#
# Usage, from the repository root:  benchmarks/scripts/host-sysfs-snapshot.sh [rounds]
# (SIZES="1 8 16" by default: one tree, node_exporter and JMH run per number of devices)
# Needs: a JDK 17, Maven, curl, python3, and node_exporter
#   (Debian: apt-get install -y prometheus-node-exporter).
set -euo pipefail

ROUNDS="${1:-200}"
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
	# $1: number of devices; writes $WORK/$1/{first.prom,pairs-kept.txt,pairs-each.txt,load.txt,jmh.json}
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
	for files in kept each; do
		echo "== $devices devices: $ROUNDS paired rounds, files $files"
		cut -d' ' -f1-3 /proc/loadavg >>"$dir/load.txt"
		java -cp "$CP" io.github.rdmacounters.benchmarks.HostSysfsVersusNodeExporter "$ROOT" \
			"http://127.0.0.1:$PORT/metrics" "$ROUNDS" "$files" >"$dir/pairs-$files.txt"
	done
	cut -d' ' -f1-3 /proc/loadavg >>"$dir/load.txt"
	kill "$NE_PID"
	wait "$NE_PID" 2>/dev/null || true
	NE_PID=""
	echo "== $devices devices: JMH, snapshots back to back"
	java -cp "$CP" org.openjdk.jmh.Main HostSysfsSnapshotBenchmark -p root="$ROOT" -p devices="$devices" \
		-p counters=pma -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc -rf json -rff "$dir/jmh.json" | tail -3
}

for devices in $SIZES; do
	run_size "$devices"
done
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK" "$RESULTS" "$ROUNDS" "$LOAD" "$("$NODE_EXPORTER" --version 2>&1 | head -1)" "$SIZES" <<'PY'
import json, platform, statistics, sys
work, results, rounds, load, ne_version, sizes = sys.argv[1:7]
sizes = [int(size) for size in sizes.split()]

def pairs(size, files):
    with open(f"{work}/{size}/pairs-{files}.txt") as f:
        return [tuple(map(float, line.split())) for line in f if line.strip()]

def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]

rows, loop_rows, verdicts, series_text = [], [], [], []
jvm = ""
for size in sizes:
    first = open(f"{work}/{size}/first.prom").read().splitlines()
    success = [l for l in first if l.startswith('node_scrape_collector_success{collector="infiniband"}')]
    series = [l for l in first if l.startswith("node_infiniband_")]
    series_text.append(f"{size}: {len(series)} series, `{success[0] if success else 'no success line'}`")
    loads = [line.strip() for line in open(f"{work}/{size}/load.txt")]
    for files in ("kept", "each"):
        p = pairs(size, files)
        ours = statistics.median(o for o, _ in p)
        ne = statistics.median(n for _, n in p)
        ratios = [o / n for o, n in p]
        ratio = statistics.median(ratios)
        rows.append(f"| {size} | `{files}` | {ours:.0f} | {ne:.0f} | **{ratio:.2f}** ({q(ratios, 0.25):.2f} to "
                    f"{q(ratios, 0.75):.2f}) | {'met' if ratio <= 0.75 else 'missed'} | {loads[0]} / {loads[-1]} |")
        if files == "kept":
            verdicts.append(ratio <= 0.75)
    run = json.load(open(f"{work}/{size}/jmh.json"))[0]
    jvm = f'{run["vmName"]} {run["jdkVersion"]}, JMH {run["jmhVersion"]}'
    for run in json.load(open(f"{work}/{size}/jmh.json")):
        metric = run["primaryMetric"]
        alloc = run["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score")
        alloc_text = f"{alloc / 1024:.1f} KB" if alloc is not None else "n/a"
        loop_rows.append(f"| {size} | `{run['params']['files']}` | {metric['score']:.0f} ± {metric['scoreError']:.0f} µs "
                         f"| {alloc_text} |")

lines = [
    "# Host-wide sysfs snapshot against node_exporter (`HostSysfsVersusNodeExporter`, `HostSysfsSnapshotBenchmark`)",
    "",
    "One read of every RDMA device of a host from sysfs: `SysfsHostPortCountersSource.snapshot()` with",
    "a cache time-to-live of 0 (the root is listed and every file read on each call) against the",
    "time node_exporter's infiniband collector takes on the same tree, paired and interleaved",
    "(`node_scrape_collector_duration_seconds{collector=\"infiniband\"}` of a scrape, then our snapshot, each",
    "after a 10 ms pause, the order alternating from round to round), on trees of "
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
    "Our source reads the same files: the counter filter of the 21 `counters/` names (what",
    "`rdma.port-counters.include` of those names gives the host source).",
    "`kept`: files read again are kept open and read at offset 0, as the source reads sysfs",
    "(the tree is on an ordinary file system, where the source would open every file, so the run asks",
    "for this mode); `each`: every file opened, read and closed at every snapshot.",
    "",
    "## Command",
    "",
    "From the repository root:",
    "",
    "```",
    f"SIZES=\"{' '.join(str(size) for size in sizes)}\" benchmarks/scripts/host-sysfs-snapshot.sh {rounds}",
    "```",
    "",
    "For each size the script writes the tree with `HostSysfsTree <tmp>/sys <devices>`, starts",
    "node_exporter on it (`--path.sysfs=<tmp>/sys --collector.disable-defaults --collector.infiniband",
    "--web.listen-address=127.0.0.1:19100`), runs `HostSysfsVersusNodeExporter <tmp>/sys/class/infiniband",
    f"http://127.0.0.1:19100/metrics {rounds} kept` and then `... each` ({rounds} paired rounds after 500",
    "snapshots and 20 scrapes of warm-up), stops node_exporter, and runs `org.openjdk.jmh.Main",
    "HostSysfsSnapshotBenchmark -p root=... -p devices=<n> -p counters=pma -f 1 -wi 3 -i 5 -w 1s -r 1s",
    "-prof gc` (back to back, for the allocation); then it writes this file.",
    "",
    "## Results",
    "",
    f"{jvm}; {ne_version}; {platform.machine()}, 2 cores shared with other builds; load average {load} at the end.",
    "",
    "Paired rounds, medians in µs; the ratio is the median of the per-round ratios (ours / node_exporter's)",
    "with its quartiles; the target is at most 0.75 at every size, with files `kept` (how sysfs is read):",
    "",
    "| Devices | Files | ours | node_exporter | ratio (quartiles) | ≤ 0.75 | load average before / after |",
    "|---|---|---|---|---|---|---|",
    *rows,
    "",
    "Back to back (JMH average time, `-prof gc`, no node_exporter running):",
    "",
    "| Devices | Files | Time per snapshot | Allocated per snapshot |",
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
