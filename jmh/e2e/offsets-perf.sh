#!/usr/bin/env bash
# Whole-process replay of one __consumer_offsets partition: `segscope offsets` (as the launcher
# runs it, -Xmx512m, writing the committed offsets to a file) against Kafka 4.4.0's own load of the
# same partition in a JVM of its own (io.segscope.jmh.replay.OffsetsReplayMain kafka --once:
# FileRecords, GroupCoordinatorRecordSerde, GroupCoordinatorShard.replay, as the broker's
# CoordinatorLoaderImpl does; no output), each under /usr/bin/time -v. Prints a markdown table of
# medians to stdout.
#
#   jmh/e2e/offsets-perf.sh [--rounds N] [--jvm-opts OPTS] PARTITION_DIR
#
# Build first: mvn -B -q -DskipTests -pl inspector,jmh -am package. The realistic 300 MiB
# partition: java -cp jmh/target/benchmarks.jar io.segscope.jmh.e2e.OffsetsSegmentGenerator with
# the arguments of io.segscope.jmh.replay.ReplayPartitions (the JMH benchmark generates it on first
# use under /work/perfdata/replay300).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds=3
jvm_opts="-Xmx512m"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --jvm-opts) jvm_opts="$2"; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: offsets-perf.sh [--rounds N] [--jvm-opts OPTS] PARTITION_DIR" >&2; exit 2; }
dir="$1"
jar="$root/inspector/target/segscope.jar"
bench="$root/jmh/target/benchmarks.jar"
for f in "$jar" "$bench"; do
  [ -f "$f" ] || { echo "missing $f: mvn -B -q -DskipTests -pl inspector,jmh -am package" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# one run: label, command...; appends "label wall cpu rss" to $work/runs
run() {
  local label="$1"; shift
  /usr/bin/time -v -o "$work/time" "$@" > "$work/$label.out" 2> "$work/$label.err" || {
    echo "$label failed:" >&2; cat "$work/$label.err" >&2; exit 1; }
  local wall cpu rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for (i=1;i<=n;i++) s=s*60+a[i]; print s}' "$work/time")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2/1024}' "$work/time")
  echo "$label $wall $cpu $rss" >> "$work/runs"
}

for ((r = 0; r < rounds; r++)); do
  if (( r % 2 == 0 )); then
    run kafka java $jvm_opts -cp "$bench" io.segscope.jmh.replay.OffsetsReplayMain kafka "$dir" --once
    run segscope java $jvm_opts -jar "$jar" offsets --format csv "$dir"
  else
    run segscope java $jvm_opts -jar "$jar" offsets --format csv "$dir"
    run kafka java $jvm_opts -cp "$bench" io.segscope.jmh.replay.OffsetsReplayMain kafka "$dir" --once
  fi
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
bytes=$(find "$dir" -name '*.log' -printf '%s\n' | awk '{s+=$1} END {print s}')
offsets=$(wc -l < "$work/segscope.out")
echo "### segscope offsets vs Kafka's coordinator load, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- partition: \`$dir\`, $bytes bytes ($((bytes / 1048576)) MiB), $offsets committed offsets"
echo "- machine: $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1)"
echo "- JVM options for both sides: \`$jvm_opts\`; $rounds rounds, order reversed every other round; medians"
echo
echo "| side | wall s | CPU s (user+sys) | peak RSS MiB | wall / Kafka |"
echo "|---|---:|---:|---:|---:|"
kwall=$(awk '$1=="kafka" {print $2}' "$work/runs" | median)
for side in kafka segscope; do
  wall=$(awk -v s=$side '$1==s {print $2}' "$work/runs" | median)
  cpu=$(awk -v s=$side '$1==s {print $3}' "$work/runs" | median)
  rss=$(awk -v s=$side '$1==s {print $4}' "$work/runs" | median)
  name=$([ $side = kafka ] && echo "Kafka 4.4.0 load (GroupCoordinatorShard.replay)" || echo "segscope offsets --format csv")
  printf '| %s | %.2f | %.2f | %.0f | %.2f |\n' "$name" "$wall" "$cpu" "$rss" "$(echo "$wall / $kwall" | bc -l)"
done
