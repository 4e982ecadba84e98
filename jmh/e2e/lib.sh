# Shared by the end-to-end scripts (dump-throughput.sh, perf/compare): source it.
# shellcheck shell=bash

# What kafka-run-class.sh gives every tool it starts (kafka-dump-log.sh included) when
# KAFKA_HEAP_OPTS and KAFKA_JVM_PERFORMANCE_OPTS are unset; each variable replaces its part, as there.
kafka_tool_jvm_opts() {
  echo "${KAFKA_HEAP_OPTS:--Xmx256M} ${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true}"
}

# What the ./segscope launcher gives the JVM: -Xmx512m unless SEGSCOPE_JAVA_OPTS sets a maximum heap.
segscope_launcher_jvm_opts() {
  local opts="${SEGSCOPE_JAVA_OPTS:-}"
  case " $opts " in
    *" -Xmx"* | *" -XX:MaxHeapSize="* | *" -XX:MaxRAMPercentage="* | *" -XX:MaxRAMFraction="*) ;;
    *) opts="-Xmx512m${opts:+ $opts}" ;;
  esac
  echo "$opts"
}

# kafka_classpath ROOT: prints the classpath of Kafka 4.4.0's tools (kafka-tools and its
# dependencies, from jmh/e2e/pom.xml), resolved once into ROOT/jmh/target/kafka-tools.classpath
# (Maven, offline when the local repository has them).
kafka_classpath() {
  local root="$1"
  local cpfile="$root/jmh/target/kafka-tools.classpath"
  if [ ! -s "$cpfile" ]; then
    mkdir -p "$(dirname "$cpfile")"
    echo "resolving Kafka's classpath into $cpfile ..." >&2
    (cd "$root" && { mvn -B -q -o -f jmh/e2e/pom.xml dependency:build-classpath -Dmdep.outputFile="$cpfile" \
        || mvn -B -q -f jmh/e2e/pom.xml dependency:build-classpath -Dmdep.outputFile="$cpfile"; }) >&2
  fi
  cat "$cpfile"
}

# timed TIME_FILE OUT ERR COMMAND...: runs COMMAND under /usr/bin/time -v, its stdout to OUT and
# stderr to ERR; prints "wall_s cpu_s max_rss_kb exit" (CPU: user + sys of the whole process).
timed() {
  local tv="$1" out="$2" err="$3"
  shift 3
  local status=0
  /usr/bin/time -v -o "$tv" "$@" > "$out" 2> "$err" || status=$?
  awk -F': ' -v status="$status" '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /(User|System) time \(seconds\)/ { c += $2 }
    /Maximum resident set size/ { r = $2 }
    END { printf "%s %s %s %s\n", w, c, r, status }' "$tv"
}
