package io.segscope.jmh.e2e;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.segscope.format.compact.CompactResult;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.ReplayResult;
import io.segscope.testdata.generator.AdminSnapshot;
import io.segscope.testdata.generator.Broker;
import io.segscope.testdata.generator.Json;
import io.segscope.testdata.generator.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.internals.AppInfoParser;

/**
 * Kafka accepts segscope's compaction: a real Kafka 4.4.0 broker (KRaft, combined mode, child JVM on
 * 127.0.0.1, the corpus run's own broker settings from {@code run.json}) is started on a copy of a
 * corpus run's log dir three times: unchanged ({@code restart}, the control: what a broker restart
 * alone changes), with every {@code __consumer_offsets-N} replaced by {@link Compactor#compact}'s
 * output ({@code compact}: Kafka's default cleaner settings, the clock in 2096 so every tombstone is
 * past {@code delete.retention.ms}, every segment cleaned, the active one too) and by
 * {@link Compactor#snapshot}'s output ({@code snapshot}). Each time, once the group coordinator has
 * loaded (two Admin snapshots in a row agree), the Admin API snapshot of the corpus generator
 * ({@link AdminSnapshot}: listGroups, the describe calls, listConsumerGroupOffsets /
 * listStreamsGroupOffsets / listShareGroupOffsets for every group, every topic's earliest and latest
 * offsets) is taken, the broker stopped with SIGTERM, and the snapshot compared, flattened to one
 * line per field, with the run's {@code admin.json} (what the broker reported before it stopped) and
 * with the control. Results go to {@code <out>/<run>/} ({@code <variant>.admin.json} and
 * {@code RESULT.md}); see docs/compact-acceptance.md.
 *
 * <p>Arguments: {@code --root DIR} (the repository, default .), {@code --runs a,b} (corpus run names,
 * default kraft-4.4.0-plain), {@code --out DIR} (default testdata/compact-acceptance). Run through
 * the {@code compact-acceptance} profile of jmh, which puts the broker on the class path.
 */
public final class CompactAcceptance {
    /** 2096-10-02: every tombstone of the corpus is past delete.retention.ms, every producer expired. */
    static final long FAR = 4_000_000_000_000L;
    static final List<String> VARIANTS = List.of("restart", "compact", "snapshot");

    private CompactAcceptance() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Paths.get(".");
        List<String> runs = List.of("kraft-4.4.0-plain");
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Paths.get(args[++i]);
                case "--runs" -> runs = List.of(args[++i].split(","));
                case "--out" -> out = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("usage: CompactAcceptance [--root DIR] [--runs a,b] [--out DIR]");
            }
        }
        root = root.toAbsolutePath().normalize();
        if (out == null) {
            out = root.resolve("testdata/compact-acceptance");
        }
        String classpath = System.getProperty("java.class.path");
        Path work = Files.createTempDirectory("segscope-compact-acceptance-");
        boolean allOk = true;
        try {
            for (String run : runs) {
                allOk &= run(root.resolve("testdata/corpus").resolve(run), out.resolve(run), work.resolve(run), classpath);
            }
        } finally {
            Trees.deleteTree(work);
        }
        System.out.println(allOk ? "compact acceptance: every variant reports the groups and offsets of the control"
                : "compact acceptance: a broker did not come up or groups or offsets differ, see RESULT.md");
        System.exit(allOk ? 0 : 1);
    }

    private static boolean run(Path runDir, Path outDir, Path work, String classpath) throws Exception {
        String name = runDir.getFileName().toString();
        Map<String, Object> runJson = asMap(parse(runDir.resolve("run.json")));
        Map<String, Object> adminJson = asMap(parse(runDir.resolve("admin.json")));
        Map<String, String> overrides = new TreeMap<>();
        asMap(runJson.get("brokerConfig")).forEach((k, v) -> {
            if (!String.valueOf(v).contains("<")) {   // ports and paths are the new broker's own
                overrides.put(k, String.valueOf(v));
            }
        });
        // the offset expiration sweep (every 10 min by default) would make the result depend on
        // the date of the run: corpus commits older than offsets.retention.minutes (7 days) expire
        overrides.put("offsets.retention.check.interval.ms", String.valueOf(TimeUnit.DAYS.toMillis(1)));
        // the transaction coordinator aborts timed-out transactions every 10 s by default: the
        // crashed run's open transaction would be aborted (markers written to __consumer_offsets,
        // __transaction_state and txn-orders) or not, depending on how long the comparison takes
        overrides.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", String.valueOf(TimeUnit.DAYS.toMillis(1)));
        Files.createDirectories(outDir);

        Map<String, String> expected = flatten(adminJson);
        Map<String, Map<String, String>> seen = new LinkedHashMap<>();
        StringBuilder md = new StringBuilder();
        md.append("# Compact acceptance: ").append(name).append("\n\n");
        md.append("- date: ").append(Instant.now()).append("\n");
        md.append("- broker: Apache Kafka ").append(AppInfoParser.getVersion())
                .append(" (KRaft, combined broker+controller, one node, the run's broker settings from run.json")
                .append(", plus offsets.retention.check.interval.ms=86400000 and ")
                .append("transaction.abort.timed.out.transaction.cleanup.interval.ms=86400000: no offset expiration ")
                .append("sweep and no abort of timed-out transactions while the comparison runs)\n");
        md.append("- input: testdata/corpus/").append(name).append("/logdir, copied; admin.json: what the ")
                .append("run's broker reported before it stopped\n");
        md.append("- compared: Admin API listGroups, describeClassicGroups / describeConsumerGroups / ")
                .append("describeShareGroups / describeStreamsGroups (members, epochs, assignments), ")
                .append("listConsumerGroupOffsets / listStreamsGroupOffsets / listShareGroupOffsets of every group ")
                .append("(offset, leader epoch, metadata), every topic's id and earliest/latest offsets\n\n");
        boolean ok = true;
        for (String variant : VARIANTS) {
            Path vwork = work.resolve(variant);
            Path logDir = vwork.resolve("logdir");
            Trees.copyTree(runDir.resolve("logdir"), logDir);
            Files.deleteIfExists(logDir.resolve(".lock"));
            List<String> notes = new ArrayList<>();
            java.util.Set<String> openTxnOnly = variant.equals("snapshot")
                    ? openTransactionOnlyGroups(runDir.resolve("logdir")) : java.util.Set.of();
            if (!variant.equals("restart")) {
                replaceOffsetsPartitions(runDir.resolve("logdir"), logDir, vwork.resolve("segscope"), variant, notes);
            }
            System.out.println("[" + name + "/" + variant + "] starting a broker on " + logDir);
            Broker broker = new Broker(vwork, logDir, classpath, overrides);
            Map<String, Object> snapshot;
            int exit;
            try {
                broker.start();
                snapshot = stableSnapshot(broker);
            } catch (Exception e) {
                stopQuietly(broker);
                Path log = vwork.resolve("broker.out");
                List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
                List<String> errors = lines.subList(Math.max(0, lines.size() - 20), lines.size());
                md.append("## ").append(variant).append("\n\nThe broker did not come up on this log dir: `")
                        .append(e.getMessage().replace(work.toString(), "<work>")).append("`. The end of its output:\n\n```\n");
                for (String l : errors.subList(0, Math.min(errors.size(), 20))) {
                    md.append(l.replace(work.toString(), "<work>")).append("\n");
                }
                md.append("```\n\nNo comparison for this run.\n");
                Files.writeString(outDir.resolve("RESULT.md"), md.toString(), StandardCharsets.UTF_8);
                System.out.println("[" + name + "/" + variant + "] the broker did not come up: " + e.getMessage());
                return false;
            }
            exit = stopQuietly(broker);
            System.out.println("[" + name + "/" + variant + "] broker stopped (exit " + exit + ")");
            Json.write(outDir.resolve(variant + ".admin.json"), snapshot);
            Map<String, String> actual = flatten(snapshot);
            seen.put(variant, actual);

            md.append("## ").append(variant).append("\n\n");
            md.append(switch (variant) {
                case "restart" -> "The log dir unchanged: what a broker restart alone changes (the control).\n\n";
                case "compact" -> "Every `__consumer_offsets-N` replaced by `Compactor.compact(dir, "
                        + "CompactSettings.defaults(4000000000000L).withCleanUpTo(Long.MAX_VALUE), out)`: Kafka's "
                        + "cleaner with its default settings, the clock in 2096 (every tombstone past "
                        + "delete.retention.ms), every segment cleaned, the active one too.\n\n";
                default -> "Every `__consumer_offsets-N` replaced by `Compactor.snapshot(dir, "
                        + "CompactSettings.defaults(4000000000000L), out)`: the latest record of each key with a "
                        + "value, committed data only, no markers.\n\n";
            });
            for (String n : notes) {
                md.append(n).append("\n");
            }
            if (!notes.isEmpty()) {
                md.append("\n");
            }
            md.append("Broker exit code after SIGTERM: ").append(exit).append("; groups: ")
                    .append(count(actual, "groups")).append(", committed offsets: ")
                    .append(countOffsets(actual)).append(".\n\n");
            md.append("Against admin.json: ");
            diff(expected, actual, md, openTxnOnly);
            if (!variant.equals("restart")) {
                md.append("Against the control (restart): ");
                List<String> groupDiffs = diff(seen.get("restart"), actual, md, openTxnOnly);
                ok &= groupDiffs.isEmpty();
            }
        }
        md.append("## Outcome\n\n").append(ok
                ? "Groups (ids, types, states, members, epochs, assignments) and committed offsets (offset, "
                        + "leader epoch, metadata) are the same with segscope's output as with the broker's own "
                        + "log dir, for both variants.\n"
                : "DIFFERENCES in groups or offsets between segscope's output and the control: see above.\n");
        Files.writeString(outDir.resolve("RESULT.md"), md.toString(), StandardCharsets.UTF_8);
        return ok;
    }

    /** Replaces every __consumer_offsets partition of {@code logDir} by segscope's output for it. */
    private static void replaceOffsetsPartitions(Path source, Path logDir, Path scratch, String variant, List<String> notes)
            throws IOException {
        List<Path> parts;
        try (Stream<Path> s = Files.list(source)) {
            parts = s.filter(p -> p.getFileName().toString().startsWith("__consumer_offsets-")).sorted().toList();
        }
        long in = 0;
        long outMessages = 0;
        long bytesIn = 0;
        long bytesOut = 0;
        int logEndChanged = 0;
        for (Path p : parts) {
            CompactResult r = variant.equals("compact")
                    ? Compactor.compact(p, CompactSettings.defaults(FAR).withCleanUpTo(Long.MAX_VALUE), scratch)
                    : Compactor.snapshot(p, CompactSettings.defaults(FAR), scratch);
            Path written = r.partitionDir().orElseThrow();
            Path target = logDir.resolve(p.getFileName().toString());
            long before = logEnd(target);
            bytesIn += logBytes(target);
            bytesOut += logBytes(written);
            in += r.stats().messagesRead();
            outMessages += r.stats().messagesWritten();
            Trees.deleteTree(target);
            Trees.copyTree(written, target);
            if (logEnd(target) != before) {
                logEndChanged++;
            }
        }
        notes.add("- " + parts.size() + " partitions replaced: " + bytesIn + " log bytes, " + in
                + " records read (cleaned sections) -> " + bytesOut + " log bytes, " + outMessages + " records written");
        notes.add("- partitions whose last segment now ends before the broker's log end offset (records at the end "
                + "removed): " + logEndChanged);
    }

    /**
     * Groups that only pending offsets of open transactions name (segscope's replay of the input):
     * Kafka's coordinator lists them, a snapshot (committed data only) cannot.
     */
    private static java.util.Set<String> openTransactionOnlyGroups(Path logDir) throws IOException {
        java.util.Set<String> pending = new TreeSet<>();
        java.util.Set<String> named = new TreeSet<>();
        try (Stream<Path> s = Files.list(logDir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith("__consumer_offsets-")).toList()) {
                ReplayResult r = OffsetsReplay.replay(OffsetsReplay.logFiles(p), AsOf.END);
                r.pendingOffsets().forEach(o -> pending.add(o.group()));
                r.offsets().forEach(o -> named.add(o.group()));
                named.addAll(r.groups().entrySet().stream().filter(e -> !e.getValue().isSimple())
                        .map(Map.Entry::getKey).toList());
            }
        }
        pending.removeAll(named);
        return pending;
    }

    /** The next offset after the last batch of the partition's last non-empty segment (0 if none). */
    private static long logEnd(Path partition) throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(partition)) {
            logs = s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
        long end = 0;
        for (Path log : logs) {
            try (org.apache.kafka.common.record.internal.FileRecords f =
                         org.apache.kafka.common.record.internal.FileRecords.open(log.toFile(), false)) {
                for (var b : f.batches()) {
                    end = b.nextOffset();
                }
            }
        }
        return end;
    }

    private static long logBytes(Path partition) throws IOException {
        try (Stream<Path> s = Files.list(partition)) {
            long n = 0;
            for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
                n += Files.size(p);
            }
            return n;
        }
    }

    /** Admin snapshots until two in a row agree (the coordinator has loaded every partition). */
    private static Map<String, Object> stableSnapshot(Broker broker) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Map<String, String> previous = null;
        try (Admin admin = broker.admin()) {
            while (true) {
                try {
                    Map<String, Object> s = new AdminSnapshot(admin).take();
                    Map<String, String> flat = flatten(s);
                    if (flat.equals(previous)) {
                        return s;
                    }
                    previous = flat;
                } catch (Exception notYet) {
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    previous = null;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no two Admin snapshots in a row agreed within 120 s");
                }
                Thread.sleep(1000);
            }
        }
    }

    private static int stopQuietly(Broker broker) {
        try {
            return broker.stopClean();
        } catch (Exception e) {
            return -1;
        }
    }

    // ------------------------------------------------------------ comparison

    /**
     * Writes the differences between {@code expected} and {@code actual} as a list; returns those in
     * groups (types, states, members, offsets), which decide the outcome. Topic offsets are listed
     * but do not count: compaction may end the log earlier.
     */
    static List<String> diff(Map<String, String> expected, Map<String, String> actual, StringBuilder md,
                             java.util.Set<String> openTxnOnly) {
        List<String> groups = new ArrayList<>();
        List<String> other = new ArrayList<>();
        TreeSet<String> explained = new TreeSet<>();
        TreeSet<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String k : keys) {
            String e = expected.get(k);
            String a = actual.get(k);
            if (e != null && e.equals(a)) {
                continue;
            }
            String line = "`" + k + "`: " + (e == null ? "(absent)" : "`" + e + "`") + " -> "
                    + (a == null ? "(absent)" : "`" + a + "`");
            String group = k.startsWith("groups[") ? k.substring(7, k.indexOf("]")) : null;
            if (group != null && a == null && openTxnOnly.contains(group)) {
                explained.add(group);
                continue;
            }
            (k.startsWith("groups") ? groups : other).add(line);
        }
        for (String g : explained) {
            md.append("Expected: group `").append(g).append("` is absent. Only an open transaction's offset commit names it: ")
                    .append("Kafka creates an empty simple classic group when it replays a transactional offset ")
                    .append("commit, before the transaction ends, and the snapshot keeps committed data only.\n\n");
        }
        if (groups.isEmpty() && other.isEmpty()) {
            md.append("identical.\n\n");
            return groups;
        }
        md.append(groups.isEmpty() ? "groups and offsets identical" : groups.size() + " differences in groups and offsets")
                .append(other.isEmpty() ? "" : "; " + other.size() + " in topics").append(".\n\n");
        for (String l : groups) {
            md.append("- ").append(l).append("\n");
        }
        for (String l : other) {
            md.append("- ").append(l).append("\n");
        }
        md.append("\n");
        return groups;
    }

    static int count(Map<String, String> flat, String prefix) {
        TreeSet<String> ids = new TreeSet<>();
        for (String k : flat.keySet()) {
            if (k.startsWith(prefix + "[")) {
                ids.add(k.substring(0, k.indexOf(']') + 1));
            }
        }
        return ids.size();
    }

    static int countOffsets(Map<String, String> flat) {
        int n = 0;
        for (String k : flat.keySet()) {
            if (k.startsWith("groups[") && k.contains("].offsets[") && k.endsWith("].offset")) {
                n++;
            }
        }
        return n;
    }

    /** One line per leaf: list elements keyed by their id (group id, topic name, topic-partition, member). */
    static Map<String, String> flatten(Object tree) {
        Map<String, String> out = new TreeMap<>();
        flatten("", tree, out);
        return out;
    }

    private static void flatten(String path, Object v, Map<String, String> out) {
        if (v instanceof java.util.Optional<?> o) {
            v = o.orElse(null);
        }
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (path.isEmpty() && e.getKey().equals("takenAtMs")) {
                    continue;
                }
                flatten(path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey(), e.getValue(), out);
            }
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                out.put(path, "[]");
            }
            for (int i = 0; i < l.size(); i++) {
                flatten(path + "[" + key(l.get(i), i) + "]", l.get(i), out);
            }
        } else {
            out.put(path, v == null ? "null" : v instanceof Number n ? String.valueOf(n.longValue()) : v.toString());
        }
    }

    private static String key(Object element, int index) {
        if (element instanceof Map<?, ?> m) {
            if (m.containsKey("groupId")) {
                return String.valueOf(m.get("groupId"));
            }
            if (m.containsKey("name")) {
                return String.valueOf(m.get("name"));
            }
            if (m.containsKey("topic") && m.containsKey("partition")) {
                return m.get("topic") + "-" + num(m.get("partition"));
            }
            if (m.containsKey("memberId")) {
                return m.get("clientId") + "/" + m.get("memberId");
            }
            if (m.containsKey("partition")) {
                return "p" + num(m.get("partition"));
            }
        }
        return String.valueOf(index);
    }

    private static String num(Object o) {
        return o instanceof Number n ? String.valueOf(n.longValue()) : String.valueOf(o);
    }

    // ------------------------------------------------------------ JSON reading

    static Object parse(Path file) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            p.nextToken();
            return value(p);
        }
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() != JsonToken.END_OBJECT) {
                    String k = p.currentName();
                    p.nextToken();
                    m.put(k, value(p));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(value(p));
                }
                return l;
            }
            case VALUE_NUMBER_INT -> {
                return p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return p.getBooleanValue();
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> {
                return p.getText();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }
}
