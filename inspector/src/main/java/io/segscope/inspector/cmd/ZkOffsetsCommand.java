package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.zookeeper.ZkKafka;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import io.segscope.inspector.report.ReportFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code segscope zk-offsets}: the offsets Kafka's old (Scala) consumers committed to ZooKeeper,
 * read from a ZooKeeper data dir offline ({@link io.segscope.format.zookeeper}).
 */
@Command(name = "zk-offsets", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the offsets old Kafka consumers committed to ZooKeeper.",
            "The data dir is restored as ZooKeeper 3.9.5 restores it (newest valid snapshot,",
            "then the transaction logs), offline. ZK_DATA_DIR is a ZooKeeper dataDir (its",
            "version-2 dir is found), a dir holding dataDir and dataLogDir, or an archive.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:damage found (on stderr)", "2:usage error", "3:I/O error"})
public final class ZkOffsetsCommand implements Callable<Integer> {
    enum Format { table, jsonl, csv }

    @Parameters(arity = "1..*", paramLabel = "ZK_DATA_DIR", description = "ZooKeeper data dir, or an archive of one.")
    List<Path> paths;

    @Option(names = "--group", paramLabel = "GROUP", description = "Only this group. Repeatable.")
    List<String> groups;

    @Option(names = "--group-regex", paramLabel = "REGEX", description = "Only groups this Java regex matches (anywhere). Repeatable.")
    List<String> groupRegexes;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Only this topic. Repeatable.")
    List<String> topics;

    @Option(names = "--format", defaultValue = "table",
            description = "table (default), jsonl (every field), or csv (group,topic,partition,offset: the file"
                    + " kafka-consumer-groups.sh --reset-offsets --from-file reads).")
    Format format;

    @Option(names = "--export-zk-offsets", paramLabel = "FILE",
            description = "Also write Kafka's ExportZkOffsets file: one <znode path>:<value> line per offset.")
    Path export;

    @CommandLine.Mixin
    ZkSource source;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OffsetsCommand.Selection sel = OffsetsCommand.Selection.of(spec.commandLine(), groups, groupRegexes, topics, null);
        if (export != null && ReportFile.refusal(export) != null) {
            err.print("zk-offsets: --export-zk-offsets: " + ReportFile.refusal(export).replace("--out", "--export-zk-offsets") + "; not written\n");
            return Segscope.EXIT_IO;
        }
        ZkSource.Restored restored = source.restore(spec.commandLine(), "zk-offsets", paths, ZkKafka.PATHS, err);
        if (restored == null) {
            return Segscope.EXIT_IO;
        }
        ZkKafka.View view = ZkKafka.read(restored.result().tree());
        Map<String, ZkKafka.Owner> owners = new HashMap<>();
        for (ZkKafka.Owner o : view.owners()) {
            owners.put(o.group() + "\u0000" + o.topic() + "\u0000" + o.partition(), o);
        }
        List<ZkKafka.Offset> rows = new ArrayList<>();
        for (ZkKafka.Offset o : view.offsets()) {
            if (sel.group(o.group()) && sel.topic(o.topic())) {
                rows.add(o);
            }
        }
        rows.sort(java.util.Comparator.comparing(ZkKafka.Offset::group).thenComparing(ZkKafka.Offset::topic)
                .thenComparingInt(ZkKafka.Offset::partitionNumber).thenComparing(ZkKafka.Offset::partition));
        List<Row> all = partitions(view, rows, owners, sel);
        List<ZkKafka.Consumer> consumers = new ArrayList<>();
        for (ZkKafka.Consumer c : view.consumers()) {
            if (sel.group(c.group())) {
                consumers.add(c);
            }
        }
        consumers.sort(java.util.Comparator.comparing(ZkKafka.Consumer::group).thenComparing(ZkKafka.Consumer::id));
        long uncommitted = all.stream().filter(r -> r.offset() == null).count();
        switch (format) {
            case csv -> {
                int skipped = 0;
                for (ZkKafka.Offset o : rows) {
                    if (o.offset() == null || o.partitionNumber() < 0 || o.group().indexOf('\n') >= 0 || o.group().indexOf('\r') >= 0) {
                        skipped++;
                        continue;
                    }
                    out.print(OffsetsCommand.csvField(o.group()) + "," + OffsetsCommand.csvField(o.topic()) + ","
                            + o.partitionNumber() + "," + o.offset() + "\n");
                }
                if (skipped > 0) {
                    err.print("zk-offsets: csv: " + skipped + " offset(s) left out: not a number, a partition name that is"
                            + " not a number, or a group id with a line break (see --format table)\n");
                }
            }
            case jsonl -> {
                JsonGenerator json = new JsonFactory().createGenerator(out);
                json.setRootValueSeparator(null);
                for (Row r : all) {
                    ZkKafka.Offset o = r.offset();
                    ZkKafka.Owner owner = r.owner();
                    json.writeStartObject();
                    json.writeStringField("line", "offset");
                    json.writeStringField("group", r.group());
                    json.writeStringField("topic", r.topic());
                    json.writeStringField("partition", r.partition());
                    json.writeBooleanField("committed", o != null);
                    if (o == null || o.offset() == null) {
                        json.writeNullField("offset");
                    } else {
                        json.writeNumberField("offset", o.offset());
                    }
                    json.writeStringField("value", o == null ? null : o.value());
                    json.writeStringField("note", o == null ? NO_COMMIT : o.note());
                    if (o == null) {
                        json.writeNullField("mtime");
                        json.writeNullField("mtimeIso");
                        json.writeNullField("mzxid");
                        json.writeNullField("version");
                        json.writeNullField("path");
                    } else {
                        json.writeNumberField("mtime", o.mtime());
                        json.writeStringField("mtimeIso", Times.iso(o.mtime()));
                        json.writeStringField("mzxid", "0x" + Long.toHexString(o.mzxid()));
                        json.writeNumberField("version", o.version());
                        json.writeStringField("path", o.path());
                    }
                    json.writeStringField("owner", owner == null ? null : owner.owner());
                    if (owner == null) {
                        json.writeNullField("ownerSessionOpen");
                    } else {
                        json.writeBooleanField("ownerSessionOpen", owner.sessionOpen());
                    }
                    json.writeEndObject();
                    json.flush();
                    out.print('\n');
                }
                for (ZkKafka.Consumer c : consumers) {
                    json.writeStartObject();
                    json.writeStringField("line", "consumer");
                    json.writeStringField("group", c.group());
                    json.writeStringField("id", c.id());
                    json.writeStringField("session", "0x" + Long.toHexString(c.session()));
                    json.writeBooleanField("sessionOpen", c.sessionOpen());
                    json.writeNumberField("ctime", c.ctime());
                    json.writeStringField("ctimeIso", Times.iso(c.ctime()));
                    json.writeStringField("registration", c.registration());
                    json.writeEndObject();
                    json.flush();
                    out.print('\n');
                }
            }
            default -> {
                Table t = new Table("GROUP", "TOPIC", "PARTITION", "OFFSET", "MTIME", "MZXID", "VERSION", "OWNER", "NOTE");
                for (Row r : all) {
                    ZkKafka.Offset o = r.offset();
                    ZkKafka.Owner owner = r.owner();
                    String ownerCell = owner == null ? "-" : Table.cell(owner.owner()) + (owner.sessionOpen() ? "" : " (session closed)");
                    if (o == null) {
                        t.add(Table.cell(r.group()), Table.cell(r.topic()), Table.cell(r.partition()), "-", "-", "-", "-",
                                ownerCell, NO_COMMIT);
                        continue;
                    }
                    t.add(Table.cell(o.group()), Table.cell(o.topic()), Table.cell(o.partition()),
                            o.offset() == null ? Table.cell(o.value() == null ? "-" : o.value()) : Long.toString(o.offset()),
                            Times.iso(o.mtime()), "0x" + Long.toHexString(o.mzxid()), Integer.toString(o.version()),
                            ownerCell, o.note() == null ? "" : o.note());
                }
                if (t.size() > 0) {
                    t.print(out);
                }
                if (!consumers.isEmpty()) {
                    Table c = new Table("GROUP", "CONSUMER", "SESSION");
                    for (ZkKafka.Consumer k : consumers) {
                        c.add(Table.cell(k.group()), Table.cell(k.id()), "0x" + Long.toHexString(k.session())
                                + (k.sessionOpen() ? " open" : " closed"));
                    }
                    out.print(t.size() > 0 ? "\n" : "");
                    c.print(out);
                }
                long open = consumers.stream().filter(ZkKafka.Consumer::sessionOpen).count();
                out.print("\n" + rows.size() + " offset(s) of " + rows.stream().map(ZkKafka.Offset::group).distinct().count()
                        + " group(s), " + uncommitted + " assigned partition(s) with no commit; " + consumers.size()
                        + " registered consumer(s), " + open + " with an open session; as of zxid 0x"
                        + Long.toHexString(restored.result().lastZxid()) + "\n");
            }
        }
        out.flush();
        if (rows.isEmpty()) {
            err.print("zk-offsets: no offset matched under /consumers\n");
        }
        if (export != null && !writeExport(rows, err)) {
            return Segscope.EXIT_IO;
        }
        return restored.errors() ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
    }

    static final String NO_COMMIT = "no commit";

    /** One partition of a topic a group consumed: its commit (null for none) and its owner (null for none). */
    record Row(String group, String topic, String partition, int partitionNumber, ZkKafka.Offset offset, ZkKafka.Owner owner) {
    }

    /**
     * Per group and topic it consumed (committed to, or owns a partition of), every partition: the committed
     * ones and those of the topic's assignment (/brokers/topics/&lt;t&gt;) with no commit.
     */
    static List<Row> partitions(ZkKafka.View view, List<ZkKafka.Offset> rows, Map<String, ZkKafka.Owner> owners,
                                OffsetsCommand.Selection sel) {
        List<Row> all = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.Set<String> consumed = new java.util.TreeSet<>();
        for (ZkKafka.Offset o : rows) {
            String key = o.group() + "\u0000" + o.topic() + "\u0000" + o.partition();
            seen.add(key);
            consumed.add(o.group() + "\u0000" + o.topic());
            all.add(new Row(o.group(), o.topic(), o.partition(), o.partitionNumber(), o, owners.get(key)));
        }
        for (ZkKafka.Owner o : view.owners()) {
            if (sel.group(o.group()) && sel.topic(o.topic())) {
                consumed.add(o.group() + "\u0000" + o.topic());
            }
        }
        for (String gt : consumed) {
            int cut = gt.indexOf('\u0000');
            String group = gt.substring(0, cut);
            String topic = gt.substring(cut + 1);
            ZkKafka.Topic t = view.topics().get(topic);
            java.util.Set<String> parts = new java.util.LinkedHashSet<>();
            if (t != null) {
                t.assignment().keySet().forEach(p -> parts.add(Integer.toString(p)));
            }
            for (ZkKafka.Owner o : view.owners()) {
                if (o.group().equals(group) && o.topic().equals(topic)) {
                    parts.add(o.partition());
                }
            }
            for (String p : parts) {
                String key = group + "\u0000" + topic + "\u0000" + p;
                if (seen.add(key)) {
                    int n;
                    try {
                        n = Integer.parseInt(p);
                    } catch (NumberFormatException e) {
                        n = -1;
                    }
                    all.add(new Row(group, topic, p, n, null, owners.get(key)));
                }
            }
        }
        all.sort(java.util.Comparator.comparing(Row::group).thenComparing(Row::topic)
                .thenComparingInt(Row::partitionNumber).thenComparing(Row::partition));
        return all;
    }

    /** ExportZkOffsets' file, written through the report's atomic writer (a temporary file beside it, synced, renamed). */
    private boolean writeExport(List<ZkKafka.Offset> rows, PrintWriter err) {
        StringBuilder text = new StringBuilder();
        java.util.Set<String> warned = new java.util.HashSet<>();
        for (ZkKafka.Offset o : rows) {
            if (o.value() == null) {
                continue;
            }
            if (o.group().indexOf(':') >= 0 && warned.add(o.group())) {
                err.print("zk-offsets: --export-zk-offsets: group " + TextQuote.quote(o.group())
                        + " holds ':', which ImportZkOffsets splits lines at\n");
            }
            if (o.value().indexOf('\n') >= 0 || o.value().indexOf('\r') >= 0) {
                err.print("zk-offsets: --export-zk-offsets: " + TextQuote.quote(o.path()) + " holds a line break: left out\n");
                continue;
            }
            text.append(o.path()).append(':').append(o.value()).append('\n');
        }
        try {
            ReportFile.write(export, text.toString());
            return true;
        } catch (IOException e) {
            err.print("zk-offsets: --export-zk-offsets " + export + ": " + e.getMessage() + "\n");
            return false;
        }
    }
}
