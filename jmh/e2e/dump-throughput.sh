#!/usr/bin/env bash
# End-to-end dump throughput: whole `segscope dump` runs against Kafka 4.4.0's own
# DumpLogSegments on the same segment, each writing its output to a file on disk as a user would,
# timed with /usr/bin/time -v. Prints a markdown table of medians to stdout.
#
#   jmh/e2e/dump-throughput.sh [options] SEGMENT.log [SEGSCOPE_JAR...]
#
# SEGSCOPE_JAR defaults to inspector/target/segscope.jar; give several to compare builds (each is
# labelled by its file name). Make SEGMENT with the generator (see jmh/README.md):
#   java -cp jmh/target/benchmarks.jar io.segscope.jmh.e2e.OffsetsSegmentGenerator --out DIR
#
# Options:
#   --rounds N       rounds (default 3); each round runs every tool once, and the order of the
#                    tools is reversed every other round, so drift on a shared machine hits both
#   --formats LIST   segscope formats, comma-separated (default jsonl,text,kafka)
#   --out DIR        where the dump outputs and raw timings go (default: DIR/dump-throughput
#                    beside the segment's partition directory); outputs are overwritten each run
#   --jvm-opts OPTS  JVM options for BOTH sides (default: none, see JVM below)
#   --kafka-jvm-opts OPTS, --segscope-jvm-opts OPTS
#                    JVM options for one side only, in place of --jvm-opts (perf/compare gives
#                    Kafka kafka-dump-log.sh's and segscope its launcher's)
#   --no-kafka       skip DumpLogSegments (no ratio column then)
#   --build          first build inspector/target/segscope.jar (mvn package); nothing is built
#                    otherwise
#
# JVM: the ./segscope launcher runs `java -Xmx512m ${SEGSCOPE_JAVA_OPTS:-} -jar segscope.jar`
# (no -Xmx512m when SEGSCOPE_JAVA_OPTS sets a maximum heap). Both sides here run with the JVM's
# ergonomic defaults (G1, max heap 1/4 of RAM) plus --jvm-opts (give --jvm-opts -Xmx512m to measure
# as the launcher runs), so the heap settings are the same for segscope and Kafka. (Kafka's
# kafka-dump-log.sh would add -Xmx256M and its G1 pause-time flags through kafka-run-class.sh; they
# are deliberately not used, to keep one JVM configuration for both.) The effective MaxHeapSize is
# printed with the table.
#
# Kafka's classpath: kafka-tools 4.4.0 and its dependencies, from jmh/e2e/pom.xml, resolved once
# into jmh/target/kafka-tools.classpath (Maven, offline when the local repository has them; see
# lib.sh).
#
# Records/s and batches are counted from DumpLogSegments' own output (lines "| offset:" and
# "baseOffset:") of the first round; with --no-kafka, from the first segscope jsonl output.
# MB/s is segment bytes (10^6) per second of wall time, JVM start included; CPU s is user+sys
# time of the whole process (all threads, GC included), steadier than wall time on a busy machine.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
. "$here/lib.sh"

rounds=3
formats="jsonl,text,kafka"
outdir=""
jvm_opts=""
kafka_jvm_opts="-"
segscope_jvm_opts="-"
with_kafka=1
build=0
seg=""
jars=()

die() { echo "dump-throughput: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --formats) formats="$2"; shift 2 ;;
    --out) outdir="$2"; shift 2 ;;
    --jvm-opts) jvm_opts="$2"; shift 2 ;;
    --kafka-jvm-opts) kafka_jvm_opts="$2"; shift 2 ;;
    --segscope-jvm-opts) segscope_jvm_opts="$2"; shift 2 ;;
    --no-kafka) with_kafka=0; shift ;;
    --build) build=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) if [ -z "$seg" ]; then seg="$1"; else jars+=("$1"); fi; shift ;;
  esac
done
[ -n "$seg" ] || die "usage: dump-throughput.sh [options] SEGMENT.log|PARTITION_DIR [SEGSCOPE_JAR...]"
[ -e "$seg" ] || die "no such segment or partition dir: $seg"
seg="$(cd "$(dirname "$seg")" && pwd)/$(basename "$seg")"
# a partition dir: segscope reads the dir, Kafka's tool gets its .log files (--files a,b,c)
if [ -d "$seg" ]; then
  kafka_files="$(find "$seg" -maxdepth 1 -name '*.log' | sort | paste -sd, -)"
  [ -n "$kafka_files" ] || die "no .log file in $seg"
else
  kafka_files="$seg"
fi
[ ${#jars[@]} -gt 0 ] || jars=("$root/inspector/target/segscope.jar")
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (Debian: apt-get install time)"
[ "$kafka_jvm_opts" != "-" ] || kafka_jvm_opts="$jvm_opts"
[ "$segscope_jvm_opts" != "-" ] || segscope_jvm_opts="$jvm_opts"

if [ "$build" = 1 ]; then
  echo "dump-throughput: building inspector/target/segscope.jar ..." >&2
  (cd "$root" && mvn -B -q -DskipTests -pl inspector -am package) >&2
fi
for j in "${jars[@]}"; do [ -f "$j" ] || die "no such jar: $j (build it, or pass --build)"; done

if [ "$with_kafka" = 1 ]; then
  kafka_cp="$(kafka_classpath "$root")"
fi

[ -n "$outdir" ] || outdir="$(dirname "$(dirname "$seg")")/dump-throughput"
mkdir -p "$outdir"
raw="$outdir/runs.tsv"
printf 'round\ttool\tformat\twall_s\tmax_rss_kb\texit\toutput_bytes\tcpu_s\n' > "$raw"

seg_bytes=$(echo "$kafka_files" | tr ',' '\n' | xargs stat -c %s | awk '{ s += $1 } END { print s }')
IFS=',' read -r -a fmts <<< "$formats"

# The runs of one round, as "label|format|jar": DumpLogSegments, then each jar's formats.
runs=()
[ "$with_kafka" = 1 ] && runs+=("DumpLogSegments|kafka|")
for j in "${jars[@]}"; do
  for f in "${fmts[@]}"; do runs+=("$(basename "$j" .jar)|$f|$j"); done
done

# Runs one measured command; appends a row to runs.tsv.
measure() {
  local round="$1" label="$2" fmt="$3" jar="$4"
  local tag; tag="$(echo "$label-$fmt" | tr -c 'A-Za-z0-9._\n-' '_')"
  local out="$outdir/$tag.out" tv="$outdir/$tag.time"
  local wall cpu rss status
  if [ -z "$jar" ]; then
    # shellcheck disable=SC2086
    read -r wall cpu rss status < <(timed "$tv" "$out" "$outdir/$tag.err" java $kafka_jvm_opts -cp "$kafka_cp" \
      org.apache.kafka.tools.DumpLogSegments --deep-iteration --offsets-decoder --files "$kafka_files")
  else
    # shellcheck disable=SC2086
    read -r wall cpu rss status < <(timed "$tv" "$out" "$outdir/$tag.err" java $segscope_jvm_opts -jar "$jar" \
      dump --format "$fmt" "$seg")
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$label" "$fmt" "$wall" "$rss" "$status" \
    "$(stat -c %s "$out")" "$cpu" >> "$raw"
  echo "dump-throughput: round $round $label $fmt: ${wall}s wall, ${cpu}s CPU, max RSS ${rss} KB, exit $status" >&2
  if [ "$status" != 0 ]; then
    echo "dump-throughput: $label $fmt failed; see $outdir/$tag.err" >&2
  fi
  if [ "$round" = 1 ] && [ -z "${records:-}" ]; then
    if [ -z "$jar" ]; then
      records=$(grep -c '^| offset:' "$out" || true)
      batches=$(grep -c '^baseOffset:' "$out" || true)
    elif [ "$with_kafka" = 0 ] && [ "$fmt" = jsonl ]; then
      records=$(grep -c '"offset":' "$out" || true)
      batches="?"
    fi
  fi
}

records=""
batches=""
for ((r = 1; r <= rounds; r++)); do
  order=("${runs[@]}")
  if ((r % 2 == 0)); then
    order=()
    for ((i = ${#runs[@]} - 1; i >= 0; i--)); do order+=("${runs[$i]}"); done
  fi
  for spec in "${order[@]}"; do
    IFS='|' read -r label fmt jar <<< "$spec"
    measure "$r" "$label" "$fmt" "$jar"
  done
done

# the collector and maximum heap a JVM started with OPTS gets
jvm_facts() {
  # shellcheck disable=SC2086
  java $1 -XX:+PrintFlagsFinal -version 2>/dev/null | awk '
    $4 == "true" && $2 ~ /^Use(G1|Serial|Parallel|Z|Shenandoah)GC$/ { gc = $2 }
    $2 == "MaxHeapSize" { heap = sprintf("%.0f MiB", $4 / 1048576) }
    END { printf "%s, MaxHeapSize %s", gc, heap }'
}
jv=$(java -version 2>&1 | head -1)
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
load=$(cut -d' ' -f1-3 /proc/loadavg)

echo "### segscope dump vs Kafka DumpLogSegments, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- segment: \`$seg\`, $seg_bytes bytes ($(awk -v b="$seg_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB), ${records:-?} records in ${batches:-?} batches"
echo "- machine: $(nproc) cores ($cpu), load average at the end $load; $jv"
if [ "$kafka_jvm_opts" = "$segscope_jvm_opts" ]; then
  echo "- JVM options for both sides: \`${kafka_jvm_opts:-(none: the JVM defaults)}\`; $(jvm_facts "$kafka_jvm_opts")"
else
  echo "- JVM options: Kafka \`${kafka_jvm_opts:-(none)}\` ($(jvm_facts "$kafka_jvm_opts")); segscope \`${segscope_jvm_opts:-(none)}\` ($(jvm_facts "$segscope_jvm_opts"))"
fi
echo "- $rounds rounds, tool order reversed every other round; medians, with min-max wall time; each output written to a file in \`$outdir\`"
echo "- Kafka: \`java -cp <kafka-tools 4.4.0> org.apache.kafka.tools.DumpLogSegments --deep-iteration --offsets-decoder --files SEG > file\`; segscope: \`java -jar JAR dump --format F SEG > file\`"
echo
awk -F'\t' -v seg_bytes="$seg_bytes" -v records="${records:-0}" -v with_kafka="$with_kafka" '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function minmax(list,   n, a, i, lo, hi) {
    n = split(list, a, " "); lo = a[1]; hi = a[1]
    for (i = 2; i <= n; i++) { if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i] }
    return sprintf("%.2f-%.2f", lo, hi)
  }
  NR == 1 { next }
  {
    key = $2 "\t" $3
    if (!(key in wall)) { keys[++nk] = key }
    wall[key] = wall[key] " " $4; rss[key] = rss[key] " " $5; outb[key] = $7; cpu[key] = cpu[key] " " $8
    if ($6 != 0) failed[key] = 1
  }
  END {
    kt = 0
    for (i = 1; i <= nk; i++) if (keys[i] ~ /^DumpLogSegments\t/) kt = median(wall[keys[i]])
    printf "| tool | format | wall s (median) | min-max s | MB/s | records/s | CPU s (user+sys) | peak RSS MiB | output MB | time / Kafka |\n"
    printf "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    for (i = 1; i <= nk; i++) {
      k = keys[i]; split(k, kk, "\t")
      w = median(wall[k]); m = median(rss[k])
      ratio = (kt > 0) ? sprintf("%.2f", w / kt) : "-"
      printf "| %s | %s | %.2f | %s | %.1f | %s | %.1f | %.0f | %.0f | %s |%s\n", kk[1], kk[2], w, minmax(wall[k]),
        seg_bytes / 1e6 / w, (records > 0) ? sprintf("%.0f", records / w) : "?", median(cpu[k]), m / 1024,
        outb[k] / 1e6, ratio,
        (k in failed) ? " FAILED (see .err)" : ""
    }
  }' "$raw"
echo
if [ "$with_kafka" = 1 ]; then
  for j in "${jars[@]}"; do
    case ",$formats," in *,kafka,*)
      b="$(basename "$j" .jar)"
      if cmp -s "$outdir/DumpLogSegments-kafka.out" "$outdir/$b-kafka.out"; then same="byte-identical to"; else same="DIFFERENT from"; fi
      echo "- \`$b --format kafka\` output is $same DumpLogSegments' output." ;;
    esac
  done
fi
echo "- Raw timings: \`$raw\`. Wall time includes JVM start-up and writing the output file."
