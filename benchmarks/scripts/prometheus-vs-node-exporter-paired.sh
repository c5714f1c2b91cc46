#!/usr/bin/env bash
# The one-device comparison of prometheus-vs-node-exporter.sh for two versions of the
# starter against the same node_exporter in the same run: the working tree and an earlier
# commit (BASELINE), in chunks that alternate between them, so that a change of the
# machine (node_exporter's own time moved from 1.12 to 0.42 ms per device between runs
# days apart) weighs on both alike. Prints, per version, the medians over its rounds:
# the scrape with and without the starter, the starter's added time, node_exporter's
# collector time and the median of the per-round ratios (added / collector).
#
# Usage, from the repository root:
#   BASELINE=<commit> benchmarks/scripts/prometheus-vs-node-exporter-paired.sh [rounds per chunk] [chunks]
# Needs: git, a JDK 17, Maven, curl, python3, and node_exporter
#   (Debian: apt-get install -y prometheus-node-exporter).
set -euo pipefail

ROUNDS="${1:-100}"
CHUNKS="${2:-3}"
DEVICES="${DEVICES:-1}"
BASELINE="${BASELINE:?set BASELINE to the commit to compare with}"
PORT="${NODE_EXPORTER_PORT:-19100}"
NODE_EXPORTER="${NODE_EXPORTER:-$(command -v prometheus-node-exporter || command -v node_exporter || true)}"
if [ -z "$NODE_EXPORTER" ]; then
	echo "node_exporter not found: install it (apt-get install -y prometheus-node-exporter) or set NODE_EXPORTER" >&2
	exit 1
fi
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
WORK="$(mktemp -d)"
NE_PID=""
cleanup() {
	if [ -n "$NE_PID" ]; then
		kill "$NE_PID" 2>/dev/null || true
		wait "$NE_PID" 2>/dev/null || true
	fi
	git -C "$REPO" worktree remove --force "$WORK/baseline" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

build() {
	mvn -B -q -o -f "$1/pom.xml" -pl benchmarks -am package dependency:build-classpath -DskipTests \
		-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime >&2
	echo "$1/benchmarks/target/classes:$(cat "$1/benchmarks/target/bench-cp.txt")"
}

echo "== build the working tree and $BASELINE"
CURRENT_CP="$(build "$REPO")"
git worktree add --detach "$WORK/baseline" "$BASELINE" >/dev/null
BASELINE_CP="$(build "$WORK/baseline")"

java -cp "$CURRENT_CP" io.github.rdmacounters.benchmarks.HostSysfsTree "$WORK/sys" "$DEVICES" >/dev/null
"$NODE_EXPORTER" --path.sysfs="$WORK/sys" --collector.disable-defaults --collector.infiniband \
	--web.listen-address="127.0.0.1:$PORT" >"$WORK/node_exporter.log" 2>&1 &
NE_PID=$!
for _ in $(seq 1 100); do
	if curl -sf "http://127.0.0.1:$PORT/metrics" -o /dev/null; then
		break
	fi
	sleep 0.1
done

cut -d' ' -f1-3 /proc/loadavg >"$WORK/load.txt"
for chunk in $(seq 1 "$CHUNKS"); do
	for version in baseline current; do
		if [ "$version" = baseline ]; then cp="$BASELINE_CP"; else cp="$CURRENT_CP"; fi
		echo "== chunk $chunk of $CHUNKS: $version, $ROUNDS paired rounds"
		java -Xmx512m -cp "$cp" io.github.rdmacounters.benchmarks.PrometheusVersusNodeExporter "$WORK/sys" \
			"http://127.0.0.1:$PORT/metrics" "$ROUNDS" pma 2>>"$WORK/$version.log" \
			| grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' >>"$WORK/$version.txt"
	done
done
cut -d' ' -f1-3 /proc/loadavg >>"$WORK/load.txt"

python3 - "$WORK" "$BASELINE" "$(git rev-parse --short HEAD)" "$DEVICES" <<'PY'
import statistics, sys
work, baseline, head, devices = sys.argv[1:5]
loads = [line.strip() for line in open(f"{work}/load.txt")]
print(f"{devices} device(s); load average before / after: {loads[0]} / {loads[1]}")
print("| version | rounds | with the starter µs | without | added µs | node_exporter collector µs | ratio (quartiles) |")
print("|---|---|---|---|---|---|---|")
for version, name in (("baseline", baseline), ("current", f"working tree at {head}")):
    rounds = [list(map(float, line.split())) for line in open(f"{work}/{version}.txt") if line.strip()]
    ratios = sorted((w - wo) / c for w, wo, c, t in rounds)
    q = lambda p: ratios[min(len(ratios) - 1, int(p * len(ratios)))]
    print(f"| {name} | {len(rounds)} | {statistics.median(r[0] for r in rounds):.0f} "
          f"| {statistics.median(r[1] for r in rounds):.0f} "
          f"| {statistics.median(r[0] - r[1] for r in rounds):.0f} "
          f"| {statistics.median(r[2] for r in rounds):.0f} "
          f"| {statistics.median(ratios):.2f} ({q(0.25):.2f} to {q(0.75):.2f}) |")
PY
