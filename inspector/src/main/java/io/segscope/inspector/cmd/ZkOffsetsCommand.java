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
                for (ZkKafka.Offset o : rows) {
                    ZkKafka.Owner owner = owners.get(o.group() + "\u0000" + o.topic() + "\u0000" + o.partition());
                    json.writeStartObject();
                    json.writeStringField("group", o.group());
                    json.writeStringField("topic", o.topic());
                    json.writeStringField("partition", o.partition());
                    if (o.offset() == null) {
                        json.writeNullField("offset");
                    } else {
                        json.writeNumberField("offset", o.offset());
                    }
                    json.writeStringField("value", o.value());
                    json.writeStringField("note", o.note());
                    json.writeNumberField("mtime", o.mtime());
                    json.writeStringField("mtimeIso", Times.iso(o.mtime()));
                    json.writeStringField("mzxid", "0x" + Long.toHexString(o.mzxid()));
                    json.writeNumberField("version", o.version());
                    json.writeStringField("path", o.path());
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
            }
            default -> {
                Table t = new Table("GROUP", "TOPIC", "PARTITION", "OFFSET", "MTIME", "MZXID", "VERSION", "OWNER", "NOTE");
                for (ZkKafka.Offset o : rows) {
                    ZkKafka.Owner owner = owners.get(o.group() + "\u0000" + o.topic() + "\u0000" + o.partition());
                    t.add(Table.cell(o.group()), Table.cell(o.topic()), Table.cell(o.partition()),
                            o.offset() == null ? Table.cell(o.value() == null ? "-" : o.value()) : Long.toString(o.offset()),
                            Times.iso(o.mtime()), "0x" + Long.toHexString(o.mzxid()), Integer.toString(o.version()),
                            owner == null ? "-" : Table.cell(owner.owner()) + (owner.sessionOpen() ? "" : " (session closed)"),
                            o.note() == null ? "" : o.note());
                }
                if (t.size() > 0) {
                    t.print(out);
                }
                long consumers = view.consumers().stream().filter(c -> sel.group(c.group())).count();
                long open = view.consumers().stream().filter(c -> sel.group(c.group()) && c.sessionOpen()).count();
                out.print("\n" + rows.size() + " offset(s) of " + rows.stream().map(ZkKafka.Offset::group).distinct().count()
                        + " group(s); " + consumers + " registered consumer(s), " + open + " with an open session; as of zxid 0x"
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
