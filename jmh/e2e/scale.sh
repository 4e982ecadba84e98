#!/usr/bin/env bash
# Every command once on each scale input (jmh/SCALE.md, README "Scale"): wall, peak RSS, peak heap in
# use at a garbage collection (-Xlog:gc), exit code, bytes written to stdout.
# Usage: jmh/e2e/scale.sh LOGDIR50 LOGDIR500 BIG_PARTITION_DIR DAMAGED_LOGDIR DAMAGED_BIG_PARTITION_DIR > results.tsv
set -u
cd "$(dirname "$0")/../.."
J=inspector/target/segscope.jar
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo -e "command\tinput\twall_s\tpeak_rss_mib\tpeak_heap_mib\texit\tstdout_bytes"
run() {  # label input args...
  local label=$1 input=$2; shift 2
  rm -rf "$TMP/out" "$TMP/gc.log"
  /usr/bin/time -f "%e %M" -o "$TMP/time.txt" java -Xmx512m -Xlog:gc:file="$TMP/gc.log" -jar $J "$@" > "$TMP/stdout" 2>"$TMP/stderr"
  local rc=$?
  local bytes wall rss heap
  bytes=$(stat -c %s "$TMP/stdout")
  read -r wall rss < <(tail -1 "$TMP/time.txt")
  heap=$(grep -o '[0-9]*M->' "$TMP/gc.log" | sed 's/M->//' | sort -n | tail -1)
  echo -e "$label\t$input\t$wall\t$((rss / 1024))\t${heap:-0}\t$rc\t$bytes"
  rm -f "$TMP/stdout"
}
for D in "$1" "$2" "$3"; do
  n=$(basename "$D")
  run "verify DIR" "$n" verify "$D"
  run "dump --format kafka DIR" "$n" dump --format kafka "$D"
  run "dump --format jsonl DIR" "$n" dump --format jsonl "$D"
  run "offsets --format csv DIR" "$n" offsets --format csv "$D"
  run "groups DIR" "$n" groups "$D"
  run "compact --dry-run DIR" "$n" compact --dry-run "$D"
  run "compact --out OUT DIR" "$n" compact --out "$TMP/out" "$D"
  run "compact --roll --out OUT DIR" "$n" compact --roll --out "$TMP/out" "$D"
done
run "verify --salvage OUT DIR" "$(basename "$4")" verify --salvage "$TMP/out" "$4"
run "verify --salvage OUT DIR" "$(basename "$5")" verify --salvage "$TMP/out" "$5"
