#!/usr/bin/env bash
# Startup time the starter adds, per startup mode: the typical (1 device x 1 port x 2 sets)
# and large (8 x 2 x 8) web applications of StartupComparison / startup.sh, with the
# starter and with rdma.enabled=false, each started in a new JVM in these modes:
#   jdk17                  plain JVM (as startup.sh)
#   jdk17-cds              JDK 17 with a dynamic CDS archive of a training run of the same
#                          start (-XX:ArchiveClassesAtExit, then -Xshare:on), as Boot's CDS
#                          documentation trains one
#   jdk17-spring-aot       Spring's AOT mode (-Dspring.aot.enabled=true) with the code that
#                          Boot's SpringApplicationAotProcessor generated for that application
#                          and those properties (one processing per application and starter)
#   jdk25                  plain JDK 25
#   jdk25-aot-cache        JDK 25 with the AOT cache of a training run of the same start
#   jdk25-spring-aot-cache both
# Per round, per application and mode: one start with and one without the starter, one
# after the other, in alternating order. Prints per start "<app> <mode> starter=<bool>
# <in-process ms> <process wall ms> <process CPU ms> counters=<n>", then the tables.
#
# The starts are kept in benchmarks/target/startup-modes/; --report prints the tables of
# those written so far (of a run stopped early, say).
#
# Usage, from the repository root:
#   JAVA25=<a JDK 25's bin/java> benchmarks/scripts/startup-modes.sh [rounds | --report]
# Needs: a JDK 17 (java, javac, jar on the PATH), a JDK 25, Maven, python3, GNU time, bc.
set -euo pipefail

ROUNDS="${1:-10}"
java17=${JAVA17:-java}
java25=${JAVA25:?set JAVA25 to a JDK 25 java}
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"
OUT=benchmarks/target/startup-modes

report() { # the tables of the starts in $OUT
	python3 - "$OUT" "$("$java17" -version 2>&1 | head -1)" "$("$java25" -version 2>&1 | head -1)" <<'PY'
import statistics, sys
work, jdk17, jdk25 = sys.argv[1:4]
apps = (("typical", "1 × 1 × 2", 2), ("large", "8 × 2 × 8", 64))
modes = ("jdk17", "jdk17-cds", "jdk17-spring-aot", "jdk25", "jdk25-aot-cache", "jdk25-spring-aot-cache")
starts = [line.split() for line in open(f"{work}/starts.txt")]
for app, shape, sets in apps:
    for line in starts:
        if line[0] == app:
            expected = sets if line[2] == "starter=true" else 0
            if line[6] != f"counters={expected}":
                sys.exit(f"{' '.join(line)}: expected counters={expected}")

def paired(app, mode, column):
    """Medians without and with, the median difference within pairs, its 95 % interval."""
    rows = [line for line in starts if line[0] == app and line[1] == mode]
    values = {"starter=false": [], "starter=true": []}
    differences = []
    for first, second in zip(rows[0::2], rows[1::2]):
        pair = {first[2]: float(first[column]), second[2]: float(second[column])}
        values["starter=false"].append(pair["starter=false"])
        values["starter=true"].append(pair["starter=true"])
        differences.append(pair["starter=true"] - pair["starter=false"])
    differences.sort()
    n = len(differences)
    half = 0.98 * n ** 0.5
    low, high = differences[max(0, int(n / 2 - half))], differences[min(n - 1, int(n / 2 + half))]
    return (statistics.median(values["starter=false"]), statistics.median(values["starter=true"]),
            statistics.median(differences), low, high, n)

loads = [line.split()[1:] for line in open(f"{work}/load.txt")]
one_minute = [float(load[0]) for load in loads]
print(f"\n{jdk17}; {jdk25}; {len(starts) // (4 * len(modes))} rounds; load average (1 min) {loads[0][0]} at the start, "
      f"{loads[-1][0]} at the end, {min(one_minute)} to {max(one_minute)} at the rounds' starts.\n")
print("In-process start (`StartupComparison cold`: `SpringApplicationBuilder.run()` until the context is")
print("refreshed and the web server started), ms:\n")
print("| application | mode | pairs | median without | median with | added per pair (95 % interval) | paired ratio (95 % interval) |")
print("|---|---|---|---|---|---|---|")
for app, shape, _ in apps:
    for mode in modes:
        base, starter, added, low, high, n = paired(app, mode, 3)
        print(f"| {app} ({shape}) | {mode} | {n} | {base:.0f} | {starter:.0f} | {added:.0f} ({low:.0f} to {high:.0f}) | "
              f"{1 + added / base:.3f} ({1 + low / base:.3f} to {1 + high / base:.3f}) |")
print("\nWhole process (JVM start to exit, context closed included): wall time and CPU time (user + system, all threads), ms:\n")
print("| application | mode | wall without | wall with | wall added per pair | CPU without | CPU with | CPU added per pair (95 % interval) |")
print("|---|---|---|---|---|---|---|---|")
for app, shape, _ in apps:
    for mode in modes:
        wall = paired(app, mode, 4)
        cpu = paired(app, mode, 5)
        print(f"| {app} | {mode} | {wall[0]:.0f} | {wall[1]:.0f} | {wall[2]:.0f} | {cpu[0]:.0f} | {cpu[1]:.0f} | "
              f"{cpu[2]:.0f} ({cpu[3]:.0f} to {cpu[4]:.0f}) |")
print("\nClasses loaded in one start (`-Xlog:class+load`), of them from the AOT cache:\n")
print("| application | mode | without starter | with starter | added by the starter |")
print("|---|---|---|---|---|")
classes = {}
for line in open(f"{work}/classes.txt"):
    _, app, mode, starter, loaded, cached = line.split()
    classes[(app, mode, starter)] = (int(loaded), int(cached))
def cell(loaded, cached, mode):
    return f"{loaded} ({cached} cached)" if "cache" in mode or "cds" in mode else f"{loaded}"
for app, shape, _ in apps:
    for mode in modes:
        without, with_ = classes[(app, mode, "starter=false")], classes[(app, mode, "starter=true")]
        print(f"| {app} | {mode} | {cell(*without, mode)} | {cell(*with_, mode)} | {with_[0] - without[0]} |")
PY
}

if [[ $ROUNDS == --report ]]; then
	report
	exit
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT"
APPS=("typical 1 1 2" "large 8 2 8")
MODES=(jdk17 jdk17-cds jdk17-spring-aot jdk25 jdk25-aot-cache jdk25-spring-aot-cache)
MAIN=io.github.rdmacounters.benchmarks.StartupComparison

echo "== build"
mvn -B -q -o -pl benchmarks -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=runtime
# the JDK AOT cache takes classes from jars only, and checks them at each start: a copy of
# the class path that no build touches during the run
mkdir "$WORK/lib"
CP=""
for jar in benchmarks/target/rdma-counters-benchmarks-*[0-9T].jar $(tr ':' ' ' <benchmarks/target/bench-cp.txt); do
	cp "$jar" "$WORK/lib/"
	CP="${CP:+$CP:}$WORK/lib/$(basename "$jar")"
done

run() { # run <log> <java> <options...>: one start of StartupComparison cold with the rest
	local log=$1 java=$2
	shift 2
	local start
	start=$(date +%s%N)
	/usr/bin/time -f "cpu %U %S" -o "$log.time" "$java" -Xmx1g "$@" >"$log" 2>&1 \
		|| { echo "failed: $java $*"; tail -20 "$log"; exit 1; }
	echo "wall $(($(date +%s%N) - start))" >>"$log.time"
}

for app in "${APPS[@]}"; do
	read -r name devices ports sets <<<"$app"
	for starter in true false; do
		id="$name-$starter"
		shape=(cold "$starter" "$devices" "$ports" "$sets")
		echo "== $id: Spring AOT processing, training runs"
		# Boot's AOT processing runs StartupComparison's main with these arguments up to
		# the refresh and writes the generated code named after StartupComparison, which
		# SpringApplication looks for in AOT mode (the class of the main method)
		"$java17" -cp "$CP" org.springframework.boot.SpringApplicationAotProcessor "$MAIN" \
			"$WORK/$id/sources" "$WORK/$id/resources" "$WORK/$id/classes" io.github.rdmacounters \
			rdma-counters-benchmarks "${shape[@]}" >"$WORK/$id-process-aot.log" 2>&1
		mkdir -p "$WORK/$id/classes"
		javac -nowarn -proc:none -parameters -cp "$CP" -d "$WORK/$id/classes" \
			$(find "$WORK/$id/sources" -name '*.java')
		cp -r "$WORK/$id/resources/." "$WORK/$id/classes/"
		jar cf "$WORK/$id-spring-aot.jar" -C "$WORK/$id/classes" .
		declare -g "opts_${name}_${starter}_jdk17=-cp $CP $MAIN ${shape[*]}"
		declare -g "opts_${name}_${starter}_jdk17_spring_aot=-Dspring.aot.enabled=true -cp $WORK/$id-spring-aot.jar:$CP $MAIN ${shape[*]}"
		declare -g "opts_${name}_${starter}_jdk25=-cp $CP $MAIN ${shape[*]}"
		# JDK 17's dynamic CDS archive; -Xshare:on: a start that cannot map it fails
		run "$WORK/$id-train-cds.log" "$java17" -XX:ArchiveClassesAtExit="$WORK/$id.jsa" -cp "$CP" "$MAIN" "${shape[@]}"
		declare -g "opts_${name}_${starter}_jdk17_cds=-Xshare:on -XX:SharedArchiveFile=$WORK/$id.jsa -cp $CP $MAIN ${shape[*]}"
		# training runs: the same start, recording its classes into the cache
		run "$WORK/$id-train-jvm.log" "$java25" -XX:AOTCacheOutput="$WORK/$id-jvm.aot" -cp "$CP" "$MAIN" "${shape[@]}"
		run "$WORK/$id-train-spring.log" "$java25" -XX:AOTCacheOutput="$WORK/$id-spring.aot" \
			-Dspring.aot.enabled=true -cp "$WORK/$id-spring-aot.jar:$CP" "$MAIN" "${shape[@]}"
		# -XX:AOTMode=on: a start that cannot use the cache fails instead of running without it
		declare -g "opts_${name}_${starter}_jdk25_aot_cache=-XX:AOTMode=on -XX:AOTCache=$WORK/$id-jvm.aot -cp $CP $MAIN ${shape[*]}"
		declare -g "opts_${name}_${starter}_jdk25_spring_aot_cache=-XX:AOTMode=on -XX:AOTCache=$WORK/$id-spring.aot -Dspring.aot.enabled=true -cp $WORK/$id-spring-aot.jar:$CP $MAIN ${shape[*]}"
	done
done

java_of() { [[ $1 == jdk17* ]] && echo "$java17" || echo "$java25"; }
opts_of() { local var="opts_$1_$2_${3//-/_}"; echo "${!var}"; }

echo "== classes loaded, and from the AOT cache (one start each, -Xlog:class+load)"
for app in "${APPS[@]}"; do
	read -r name _ <<<"$app"
	for mode in "${MODES[@]}"; do
		for starter in false true; do
			log="$WORK/classes-$name-$mode-$starter.log"
			# shellcheck disable=SC2046
			run "$log" "$(java_of "$mode")" -Xlog:class+load:file="$log.classes" $(opts_of "$name" "$starter" "$mode")
			echo "classes $name $mode starter=$starter $(grep -c 'source:' "$log.classes") $(grep -c 'source: shared objects file' "$log.classes")"
		done
	done
done | tee "$OUT/classes.txt"

echo "== $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for ((round = 0; round < ROUNDS; round++)); do
	echo "$round $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"
	for app in "${APPS[@]}"; do
		read -r name _ <<<"$app"
		for i in "${!MODES[@]}"; do
			mode=${MODES[$i]}
			if (((round + i) % 2 == 0)); then order="false true"; else order="true false"; fi
			for starter in $order; do
				log="$WORK/run.log"
				# shellcheck disable=SC2046
				run "$log" "$(java_of "$mode")" $(opts_of "$name" "$starter" "$mode")
				read -r _ _ _ millis _ _ counters < <(grep '^cold ' "$log")
				read -r _ user system < <(grep '^cpu ' "$log.time")
				read -r _ wall < <(grep '^wall ' "$log.time")
				echo "$name $mode starter=$starter $millis $((wall / 1000000)) $(echo "($user + $system) * 1000" | bc) $counters"
			done
		done
	done
done | tee "$OUT/starts.txt"
echo "end $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"
report
