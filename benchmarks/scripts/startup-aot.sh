#!/usr/bin/env bash
# Startup of the sample jar (built with process-aot) until its context has refreshed
# (-Dspring.context.exit=onRefresh: Spring halts the JVM after the refresh): wall
# time of the whole process, per mode, modes interleaved round by round; the median.
#   plain JVM | Spring AOT mode (-Dspring.aot.enabled=true)
#   and on JDK 25: plain | JDK AOT cache | Spring AOT mode + JDK AOT cache
# Usage: benchmarks/scripts/startup-aot.sh [rounds] (JAVA25=<path to a JDK 25 java>)
# Build first: mvn -B package -pl sample-app -am -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
jar=$(ls sample-app/target/rdma-counters-sample-app-*.jar | grep -v original | head -1)
java17=${JAVA17:-java}
java25=${JAVA25:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java17" -Djarmode=tools -jar "$jar" extract --destination "$work/app" >/dev/null
cd "$work/app"
app=$(basename "$jar")
exit_on_refresh=(-Dspring.context.exit=onRefresh)
args=(--server.port=0 --management.server.port=0)

declare -A command
command[jdk17]="$java17 ${exit_on_refresh[*]} -jar $app ${args[*]}"
command[jdk17-spring-aot]="$java17 -Dspring.aot.enabled=true ${exit_on_refresh[*]} -jar $app ${args[*]}"
modes=(jdk17 jdk17-spring-aot)
if [[ -n "$java25" ]]; then
	# training runs: the same start, recording the classes into the cache
	"$java25" -XX:AOTCacheOutput=jvm.aot "${exit_on_refresh[@]}" -jar "$app" "${args[@]}" >train-jvm.log 2>&1
	"$java25" -XX:AOTCacheOutput=spring.aot -Dspring.aot.enabled=true "${exit_on_refresh[@]}" -jar "$app" \
		"${args[@]}" >train-spring.log 2>&1
	command[jdk25]="$java25 ${exit_on_refresh[*]} -jar $app ${args[*]}"
	command[jdk25-aot-cache]="$java25 -XX:AOTCache=jvm.aot ${exit_on_refresh[*]} -jar $app ${args[*]}"
	command[jdk25-spring-aot-aot-cache]="$java25 -XX:AOTCache=spring.aot -Dspring.aot.enabled=true ${exit_on_refresh[*]} -jar $app ${args[*]}"
	modes+=(jdk25 jdk25-aot-cache jdk25-spring-aot-aot-cache)
fi

for ((round = 0; round < rounds; round++)); do
	for mode in "${modes[@]}"; do
		start=$(date +%s%N)
		${command[$mode]} >"run-$mode.log" 2>&1 || { echo "$mode failed:"; tail -20 "run-$mode.log"; exit 1; }
		echo "$mode $(( ($(date +%s%N) - start) / 1000000 ))" >>times
	done
done
echo "$("$java17" -version 2>&1 | head -1); ${java25:+$("$java25" -version 2>&1 | head -1);} load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| mode | median ms | min | max | runs |"
echo "|---|---|---|---|---|"
for mode in "${modes[@]}"; do
	grep "^$mode " times | cut -d' ' -f2 | sort -n | awk -v m="$mode" '{ v[NR] = $1 } END {
		med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "| %s | %d | %d | %d | %d |\n", m, med, v[1], v[NR], NR }'
done
