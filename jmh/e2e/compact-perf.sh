#!/usr/bin/env bash
# Whole-process compaction: segscope's Compactor against Kafka 4.4.0's log cleaner, each one
# compaction in a fresh JVM (io.segscope.jmh.compact.CompactMain) under /usr/bin/time -v, on the
# 300 MiB __consumer_offsets partition (uncompressed and zstd) with the same settings (Kafka's
# defaults, one cleaner thread, the dedupe buffer given, the same clock). Prints a markdown table
# of medians (wall time, CPU, peak RSS, passes) to stdout, progress to stderr.
#
#   jmh/e2e/compact-perf.sh [options]
#
# Options:
#   --rounds N       rounds (default 3); each round runs both sides once per configuration, Kafka
#                    first in odd rounds and segscope first in even ones
#   --codecs LIST    none,zstd (default)
#   --buffers LIST   dedupe buffers in MiB (default 128,4)
#   --data DIR       where the partitions are (default /work/perfdata): DIR/compact300 and
#                    DIR/compact300zstd, generated on first use (see CompactPartitions)
#   --out DIR        scratch for the outputs and raw timings (default DIR/compact-perf)
#   --jvm-opts OPTS  JVM options for BOTH sides (default: none, the JVM's ergonomic defaults)
#   --jar JAR        the benchmarks jar (default jmh/target/benchmarks.jar; build it with
#                    mvn -B -q -DskipTests -pl jmh -am package)
#
# What each process does:
#   Kafka:    CompactMain kafka COPY BUF: opens COPY with UnifiedLog (recovery: indexes, .txnindex,
#             producer state from the whole log, as after an unclean shutdown), rolls, and cleans
#             pass after pass until nothing is dirty; COPY is a fresh copy of the partition's files
#             (no producer snapshots), made and synced before the timed process starts.
#   segscope: CompactMain segscope PARTITION BUF OUT: Compactor.compact into a new directory; the
#             input is only read.
# Both print their passes and the time of the compaction itself ("cleaning": for Kafka the passes
# without the log's opening); the table gives both that and the whole process's wall time. After the
# first round, each cleaned segment's .log of the two outputs is compared byte for byte.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

rounds=3
codecs="none,zstd"
buffers="128,4"
data="/work/perfdata"
outdir=""
jvm_opts=""
jar="$root/jmh/target/benchmarks.jar"

die() { echo "compact-perf: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --codecs) codecs="$2"; shift 2 ;;
    --buffers) buffers="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    --out) outdir="$2"; shift 2 ;;
    --jvm-opts) jvm_opts="$2"; shift 2 ;;
    --jar) jar="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1" ;;
  esac
done
[ -f "$jar" ] || die "no such jar: $jar (mvn -B -q -DskipTests -pl jmh -am package)"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (Debian: apt-get install time)"
[ -n "$outdir" ] || outdir="$data/compact-perf"
mkdir -p "$outdir"
raw="$outdir/runs.tsv"
printf 'round\tcodec\tbuffer_mib\tside\twall_s\tcpu_s\tmax_rss_kb\tpasses\tcleaning_s\texit\n' > "$raw"

IFS=',' read -r -a codec_list <<< "$codecs"
IFS=',' read -r -a buffer_list <<< "$buffers"

partition_of() {
  java -cp "$jar" io.segscope.jmh.compact.CompactMain prepare "$data" "$1"
}

same_logs() {   # segscope's output dir, Kafka's copy: "yes" when every segscope .log equals Kafka's
  local ours="$1" theirs="$2" f
  for f in "$ours"/*.log; do
    cmp -s "$f" "$theirs/$(basename "$f")" || { echo "NO ($(basename "$f") differs)"; return; }
  done
  echo "yes"
}

measure() {
  local round="$1" codec="$2" buf="$3" side="$4" part="$5"
  local tag="$codec-$buf-$side" status=0
  local tv="$outdir/$tag.time" log="$outdir/$tag.out"
  if [ "$side" = kafka ]; then
    rm -rf "$outdir/kafka-$codec-$buf"
    local copy="$outdir/kafka-$codec-$buf/$(basename "$part")"
    mkdir -p "$copy"
    find "$part" -maxdepth 1 -type f ! -name '*.snapshot' -exec cp --preserve=timestamps {} "$copy/" \;
    sync
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$tv" java $jvm_opts -cp "$jar" io.segscope.jmh.compact.CompactMain kafka "$copy" "$buf" \
      > "$log" 2>&1 || status=$?
  else
    rm -rf "$outdir/segscope-$codec-$buf"
    sync
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$tv" java $jvm_opts -cp "$jar" io.segscope.jmh.compact.CompactMain segscope "$part" "$buf" \
      "$outdir/segscope-$codec-$buf" > "$log" 2>&1 || status=$?
  fi
  local wall cpu rss passes cleaning
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0;
           for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tv")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tv")
  cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' "$tv")
  passes=$(sed -n 's/.* \([0-9]*\) passes, .*/\1/p' "$log" | tail -1)
  cleaning=$(sed -n 's/.*(cleaning \([0-9.]*\) s.*/\1/p' "$log" | tail -1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$codec" "$buf" "$side" "$wall" "$cpu" "$rss" \
    "${passes:-?}" "${cleaning:-?}" "$status" >> "$raw"
  echo "compact-perf: round $round $codec ${buf} MiB $side: ${wall}s wall (cleaning ${cleaning:-?}s), ${cpu}s CPU, max RSS ${rss} KB, ${passes:-?} passes, exit $status" >&2
  [ "$status" = 0 ] || echo "compact-perf: $tag failed; see $log" >&2
}

declare -A parts identical
for codec in "${codec_list[@]}"; do parts[$codec]="$(partition_of "$codec" | tail -1)"; done

for ((r = 1; r <= rounds; r++)); do
  for codec in "${codec_list[@]}"; do
    for buf in "${buffer_list[@]}"; do
      if ((r % 2 == 1)); then sides=(kafka segscope); else sides=(segscope kafka); fi
      for side in "${sides[@]}"; do measure "$r" "$codec" "$buf" "$side" "${parts[$codec]}"; done
      if [ "$r" = 1 ]; then
        p="${parts[$codec]}"
        identical["$codec-$buf"]="$(same_logs "$outdir/segscope-$codec-$buf/$(basename "$p")" "$outdir/kafka-$codec-$buf/$(basename "$p")")"
      fi
    done
  done
done
rm -rf "$outdir"/kafka-* "$outdir"/segscope-*

max_heap=$(java $jvm_opts -XX:+PrintFlagsFinal -version 2>/dev/null | awk '$2 == "MaxHeapSize" { printf "%.0f MiB", $4 / 1048576 }')
jv=$(java -version 2>&1 | head -1)
cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
load=$(cut -d' ' -f1-3 /proc/loadavg)

echo "### segscope compaction vs Kafka's cleaner, whole processes, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
for codec in "${codec_list[@]}"; do
  p="${parts[$codec]}"
  echo "- $codec: \`$p\`, $(find "$p" -maxdepth 1 -name '*.log' -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s }') bytes of segments"
done
echo "- machine: $(nproc) cores ($cpu_model), load average at the end $load; $jv"
echo "- JVM options for both sides: \`${jvm_opts:-(none: the JVM defaults)}\`; MaxHeapSize $max_heap"
echo "- $rounds rounds, the order of the two sides swapped every other round; medians, with the min-max wall time"
echo
awk -F'\t' '
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
    key = $2 "\t" $3 "\t" $4
    if (!(key in wall)) { keys[++nk] = key }
    wall[key] = wall[key] " " $5; cpu[key] = cpu[key] " " $6; rss[key] = rss[key] " " $7
    passes[key] = $8; clean[key] = clean[key] " " $9
    if ($10 != 0) failed[key] = 1
  }
  END {
    printf "| codec | dedupe buffer | side | passes | wall s (median) | min-max s | cleaning s (median) | CPU s (user+sys) | peak RSS MiB | Kafka wall / segscope wall | Kafka cleaning / segscope |\n"
    printf "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    for (i = 1; i <= nk; i++) {
      k = keys[i]; split(k, kk, "\t")
      kafka = kk[1] "\t" kk[2] "\tkafka"
      w = median(wall[k]); c = median(clean[k])
      rw = (kk[3] == "segscope" && (kafka in wall)) ? sprintf("%.2f", median(wall[kafka]) / w) : "-"
      rc = (kk[3] == "segscope" && (kafka in wall)) ? sprintf("%.2f", median(clean[kafka]) / c) : "-"
      printf "| %s | %s MiB | %s | %s | %.2f | %s | %.2f | %.1f | %.0f | %s | %s |%s\n", kk[1], kk[2],
        kk[3] == "kafka" ? "Kafka 4.4.0" : "segscope", passes[k], w, minmax(wall[k]), c, median(cpu[k]),
        median(rss[k]) / 1024, rw, rc, (k in failed) ? " FAILED" : ""
    }
  }' "$raw"
echo
for k in "${!identical[@]}"; do echo "- $k: segscope's .log files identical to Kafka's: ${identical[$k]}"; done | sort
echo "- Raw timings: \`$raw\`."
