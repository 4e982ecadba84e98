package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.compat.Compatibility;
import io.segscope.format.compat.FormatInventory;
import io.segscope.format.compat.KafkaReleases;
import io.segscope.format.compat.ReleaseFormats;
import io.segscope.format.compat.StateLog;
import io.segscope.format.compat.ThirdPartyDecoders;
import io.segscope.format.record.CompressionType;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code segscope compat}: what the logs hold, format by format, and which Kafka releases can load them. */
@Command(name = "compat", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print which Kafka release lines (0.10 to 4.4) can load these logs, and why not.",
            "From one pass over every partition: batches by message format, codec and feature;",
            "the record types and versions of __consumer_offsets, __transaction_state,",
            "__share_group_state and the KRaft metadata log, with when they were first seen;",
            "joined with what each release line reads (its schemas and its loaders).",
            "--target VERSION exits 1 when that release cannot load them (downgrade safety).", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success (with --target: the target loads the logs)",
            "1:--target cannot load the logs, or damage kept part of them from being read (on stderr: the verdict covers what was read)",
            "2:usage error", "3:I/O error"})
public final class CompatCommand implements Callable<Integer> {
    enum Format { table, jsonl }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dirs, partition dirs, or archives.")
    List<Path> paths;

    @Option(names = "--target", paramLabel = "VERSION", description = "A Kafka release (e.g. 3.9.1 or 3.9): exit 1 when it cannot load the logs, and say why.")
    String target;

    @Option(names = "--format", defaultValue = "table", description = "table (default) or jsonl.")
    Format format;

    @Option(names = "--per-partition", description = "The formats and record versions of each partition, not summed per topic.")
    boolean perPartition;

    @Option(names = "--deep", description = "Read every batch's records, to count those with headers (without it, user topics are read from their batch headers alone).")
    boolean deep;

    @CommandLine.Mixin
    OptionValues.ReadOptions read;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ReleaseFormats targetLine = null;
        if (target != null) {
            targetLine = KafkaReleases.line(target);
            if (targetLine == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--target: " + TextQuote.quote(target)
                        + " is not a Kafka release from 0.10.0 to 4.4 (e.g. 3.9.1 or 3.9)");
            }
        }
        try (InventorySource source = InventorySource.open("compat", paths, err)) {
            List<FormatInventory.Counts> counts = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (InventorySource.Dir d : source.dirs()) {
                // one copy of each partition (of several brokers' replicas, the first given)
                if (!seen.add(d.dir().topic() + "-" + d.dir().partition())) {
                    continue;
                }
                counts.add(FormatInventory.of(d.dir(), read.readerOptions(), deep));
            }
            if (counts.isEmpty()) {
                // no verdict on nothing: "loads in 0.10.0 and later" (and --target's exit 0) would pass
                // for a judgement of logs that were never read
                err.print("compat: no partition found under the PATHs: nothing to judge\n");
                return Segscope.EXIT_IO;
            }
            Map<String, Compatibility.TopicFormats> topics = Compatibility.byTopic(counts);
            List<Compatibility.Verdict> verdicts = Compatibility.judge(topics);
            Map<String, Compatibility.TopicFormats> shown = topics;
            if (perPartition) {
                shown = new java.util.LinkedHashMap<>();
                counts.sort(java.util.Comparator.comparing(FormatInventory.Counts::topic).thenComparingInt(FormatInventory.Counts::partition));
                for (FormatInventory.Counts c : counts) {
                    Compatibility.TopicFormats one = Compatibility.byTopic(List.of(c)).get(c.topic());
                    shown.put(c.topic() + "-" + c.partition(), one);
                    partitionOf.put(one, c.partition());
                }
            }
            String oldest = Compatibility.oldestLoading(verdicts);
            Compatibility.Verdict chosen = null;
            if (targetLine != null) {
                for (Compatibility.Verdict v : verdicts) {
                    if (v.line().equals(targetLine.line())) {
                        chosen = v;
                    }
                }
            }
            if (format == Format.jsonl) {
                jsonl(out, topics, shown, verdicts, oldest, chosen);
            } else {
                table(out, topics, shown, verdicts, oldest, chosen);
            }
            out.flush();
            // damage: the verdict covers only what was read, which must not pass for a clean bill
            long damaged = 0;
            for (FormatInventory.Counts c : counts) {
                for (String d : c.damage()) {
                    err.print("compat: " + d + "\n");
                }
                damaged += c.damage().isEmpty() ? 0 : 1;
            }
            if (damaged > 0) {
                err.print("compat: " + damaged + " partition(s) damaged: the verdict covers only what could be read;"
                        + " run `segscope verify` on them\n");
            }
            if (source.ioError()) {
                return Segscope.EXIT_IO;
            }
            return damaged > 0 || chosen != null && !chosen.loads() ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        }
    }

    private static List<String> summary(Map<String, Compatibility.TopicFormats> topics, List<Compatibility.Verdict> verdicts,
                                        String oldest, Compatibility.Verdict chosen) {
        List<String> lines = new ArrayList<>();
        if (oldest == null) {
            Compatibility.Verdict last = verdicts.get(verdicts.size() - 1);
            lines.add("No Kafka release up to " + last.line() + " loads these logs: " + last.blockers().get(0)
                    + (last.blockers().size() > 1 ? " (and " + (last.blockers().size() - 1) + " more)" : ""));
        } else {
            lines.add("These logs load in Kafka " + oldest + " and later.");
            for (int i = 1; i < verdicts.size(); i++) {
                if (verdicts.get(i).line().equals(oldest)) {
                    Compatibility.Verdict before = verdicts.get(i - 1);
                    lines.add("Kafka " + before.line() + " cannot: " + before.blockers().get(0)
                            + (before.blockers().size() > 1 ? " (and " + (before.blockers().size() - 1) + " more)" : "") + ".");
                }
            }
        }
        Map<String, Short> features = finalizedFeatures(topics);
        if (!features.isEmpty()) {
            List<String> others = new ArrayList<>();
            features.forEach((name, level) -> {
                if (!name.equals("metadata.version")) {
                    others.add(name + " " + level);
                }
            });
            Short mv = features.get("metadata.version");
            lines.add(StateLog.CLUSTER_METADATA.topic + ": metadata.version "
                    + (mv == null ? "not finalized" : KafkaReleases.metadataVersionLabel(mv))
                    + (others.isEmpty() ? "" : "; finalized " + String.join(", ", others)) + ".");
        }
        // the newest version of each coordinator record type, and when it was first written
        for (Compatibility.TopicFormats t : topics.values()) {
            if (StateLog.forTopic(t.topic()) == null || StateLog.forTopic(t.topic()) == StateLog.CLUSTER_METADATA) {
                continue;
            }
            Map<Integer, FormatInventory.RecordVersion> newest = new java.util.TreeMap<>();
            for (FormatInventory.RecordVersion v : t.recordVersions().values()) {
                if (v.version() >= 0) {
                    newest.merge((int) v.type(), v, (a, b) -> b.version() > a.version() ? b : a);
                }
            }
            for (FormatInventory.RecordVersion v : newest.values()) {
                if (v.type() <= 2) {   // offset commits and classic group metadata; the transaction log
                    lines.add(t.topic() + ": " + (v.name().isEmpty() ? "type " + v.type() : v.name()) + "Value v" + v.version()
                            + (v.firstTimestamp() >= 0 ? " since " + Times.iso(v.firstTimestamp()) : "") + " in "
                            + t.partitionsWith().get(v.type() + "/" + v.version()) + " partition(s)"
                            + (v.known() ? "" : ", a version segscope does not know"));
                }
            }
        }
        Compatibility.Verdict newest = verdicts.get(verdicts.size() - 1);
        Compatibility.Verdict about = chosen != null ? chosen : newest;
        lines.add("Offsets with Kafka " + about.line() + ": consumers " + answer(about.access().consumers()) + "; clients of "
                + about.line() + " on a 4.x broker " + answer(about.access().clientsOn4x()) + "; its formatters "
                + answer(about.access().tools()) + ".");
        for (ThirdPartyDecoders.Report r : ThirdPartyDecoders.concerning(topics)) {
            lines.add("Reported to fail on records held here: " + r.project() + " " + r.reference() + ": " + r.failure()
                    + (r.fixedIn().isEmpty() ? "" : "; fixed: " + r.fixedIn()) + ".");
        }
        if (chosen != null) {
            if (chosen.loads()) {
                lines.add("Kafka " + chosen.line() + " (--target) loads these logs" + (chosen.losses().isEmpty() ? "."
                        : ", but skips: " + String.join("; ", chosen.losses()) + "."));
            } else {
                lines.add("Downgrade to Kafka " + chosen.line() + " (--target) is unsafe: " + String.join("; ", chosen.blockers()) + ".");
            }
        }
        return lines;
    }

    /** The KRaft metadata log's finalized features by name, or an empty map. */
    private static Map<String, Short> finalizedFeatures(Map<String, Compatibility.TopicFormats> topics) {
        Compatibility.TopicFormats t = topics.get(StateLog.CLUSTER_METADATA.topic);
        return t == null ? Map.of() : t.finalizedFeatures();
    }

    /** "no: why" as "no (why)". */
    private static String answer(String a) {
        int colon = a.indexOf(": ");
        return colon < 0 ? a : a.substring(0, colon) + " (" + a.substring(colon + 2) + ")";
    }

    /** With --per-partition: the partition of each shown row. */
    private final Map<Compatibility.TopicFormats, Integer> partitionOf = new java.util.IdentityHashMap<>();

    private String label(Compatibility.TopicFormats t) {
        Integer p = partitionOf.get(t);
        return p == null ? t.topic() : t.topic() + "-" + p;
    }

    private void table(PrintWriter out, Map<String, Compatibility.TopicFormats> topics, Map<String, Compatibility.TopicFormats> shown,
                       List<Compatibility.Verdict> verdicts, String oldest, Compatibility.Verdict chosen) {
        StringBuilder sb = new StringBuilder();
        for (String l : summary(topics, verdicts, oldest, chosen)) {
            sb.append(l).append('\n');
        }
        out.print(sb.append('\n'));
        Table lines = new Table("LINE", "RELEASE", "LOADS", "BLOCKERS", "LOSSES", "CONSUMERS", "CLIENTS-ON-4X", "TOOLS", "FIRST-REASON");
        for (Compatibility.Verdict v : verdicts) {
            String reason = !v.blockers().isEmpty() ? v.blockers().get(0) : !v.losses().isEmpty() ? "skips: " + v.losses().get(0)
                    : !v.notes().isEmpty() ? v.notes().get(0) : "-";
            lines.add(v.line(), v.release(), v.loads() ? "yes" : "no", Integer.toString(v.blockers().size()),
                    Integer.toString(v.losses().size()), Compatibility.Access.word(v.access().consumers()),
                    Compatibility.Access.word(v.access().clientsOn4x()), Compatibility.Access.word(v.access().tools()), reason);
        }
        lines.print(out);
        out.print('\n');
        Table formats = new Table(perPartition ? "PARTITION" : "TOPIC", "PARTITIONS", "BATCHES", "MAGIC-0", "MAGIC-1", "MAGIC-2", "CODECS", "IDEMPOTENT",
                "TRANSACTIONAL", "CONTROL", "DELETE-HORIZON", "LOG-APPEND-TIME", "RECORDS-WITH-HEADERS");
        for (Compatibility.TopicFormats t : shown.values()) {
            StringBuilder codecs = new StringBuilder();
            t.codecs().forEach((c, n) -> codecs.append(codecs.isEmpty() ? "" : ",").append(c.toString().toLowerCase(Locale.ROOT))
                    .append('(').append(n).append(')'));
            if (t.unknownCodecBatches() > 0) {
                codecs.append(codecs.isEmpty() ? "" : ",").append(FormatInventory.UNKNOWN_CODEC).append('(')
                        .append(t.unknownCodecBatches()).append(')');
            }
            StringBuilder control = new StringBuilder();
            t.controlTypes().forEach((c, n) -> control.append(control.isEmpty() ? "" : ",").append(c).append('(').append(n).append(')'));
            formats.add(Table.cell(label(t)), Integer.toString(t.partitions()), Long.toString(t.batches()),
                    Long.toString(t.batchesByMagic()[0]), Long.toString(t.batchesByMagic()[1]), Long.toString(t.batchesByMagic()[2]),
                    codecs.toString(), Long.toString(t.idempotentBatches()), Long.toString(t.transactionalBatches()),
                    control.isEmpty() ? "-" : control.toString(), Long.toString(t.deleteHorizonBatches()),
                    Long.toString(t.logAppendTimeBatches()), t.headersCounted() ? Long.toString(t.recordsWithHeaders()) : "-");
        }
        formats.print(out);
        Table records = new Table(perPartition ? "PARTITION" : "TOPIC", "TYPE", "NAME", "VERSION", "RECORDS", "PARTITIONS", "FIRST-SEEN", "LAST-SEEN", "KNOWN",
                "TAGGED-FIELDS");
        for (Compatibility.TopicFormats t : shown.values()) {
            for (FormatInventory.RecordVersion v : t.recordVersions().values()) {
                records.add(Table.cell(label(t)), Short.toString(v.type()), v.name().isEmpty() ? "-" : v.name(),
                        v.version() < 0 ? "tombstone" : "v" + v.version(), Long.toString(v.count()),
                        Integer.toString(t.partitionsWith().get(v.type() + "/" + v.version())), Times.iso(v.firstTimestamp()),
                        Times.iso(v.lastTimestamp()), v.known() ? "yes" : "no", tagged(v));
            }
        }
        if (records.size() > 0) {
            out.print('\n');
            records.print(out);
        }
    }

    /** {@code topicId(1517),tag7(1)}, or "-" (names from segscope's schemas: no quoting needed). */
    static String tagged(FormatInventory.RecordVersion v) {
        if (v.taggedFields().isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        for (FormatInventory.TaggedField f : v.taggedFields()) {
            sb.append(sb.isEmpty() ? "" : ",").append(f.label()).append('(').append(f.count()).append(')');
        }
        return sb.toString();
    }

    private void jsonl(PrintWriter out, Map<String, Compatibility.TopicFormats> topics, Map<String, Compatibility.TopicFormats> shown,
                       List<Compatibility.Verdict> verdicts, String oldest, Compatibility.Verdict chosen) throws IOException {
        JsonGenerator g = new JsonFactory().createGenerator(out);
        g.setRootValueSeparator(null);
        g.writeStartObject();
        g.writeStringField("line", "summary");
        if (oldest == null) {
            g.writeNullField("oldestLoading");
        } else {
            g.writeStringField("oldestLoading", oldest);
        }
        Map<String, Short> features = finalizedFeatures(topics);
        Short mv = features.get("metadata.version");
        if (mv != null) {
            g.writeNumberField("metadataVersionLevel", mv);
            String name = KafkaReleases.metadataVersion(mv);
            if (name == null) {
                g.writeNullField("metadataVersion");
            } else {
                g.writeStringField("metadataVersion", name);
            }
        }
        if (!features.isEmpty()) {
            g.writeObjectFieldStart("finalizedFeatures");
            for (Map.Entry<String, Short> e : features.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        }
        if (chosen != null) {
            g.writeStringField("target", chosen.line());
            g.writeBooleanField("targetLoads", chosen.loads());
        }
        g.writeArrayFieldStart("text");
        for (String l : summary(topics, verdicts, oldest, chosen)) {
            g.writeString(l);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.flush();
        out.print('\n');
        for (Compatibility.Verdict v : verdicts) {
            g.writeStartObject();
            g.writeStringField("line", "verdict");
            g.writeStringField("kafka", v.line());
            g.writeStringField("release", v.release());
            g.writeBooleanField("loads", v.loads());
            strings(g, "blockers", v.blockers());
            strings(g, "losses", v.losses());
            strings(g, "notes", v.notes());
            g.writeObjectFieldStart("access");
            g.writeStringField("consumers", v.access().consumers());
            g.writeStringField("clientsOn4x", v.access().clientsOn4x());
            g.writeStringField("tools", v.access().tools());
            g.writeEndObject();
            g.writeEndObject();
            g.flush();
            out.print('\n');
        }
        for (ThirdPartyDecoders.Report r : ThirdPartyDecoders.concerning(topics)) {
            g.writeStartObject();
            g.writeStringField("line", "thirdParty");
            g.writeStringField("project", r.project());
            g.writeStringField("reference", r.reference());
            g.writeStringField("url", r.url());
            g.writeStringField("topic", r.log().topic);
            g.writeNumberField("type", r.type());
            g.writeNumberField("version", r.version());
            g.writeStringField("failure", r.failure());
            g.writeStringField("fixed", r.fixedIn());
            g.writeEndObject();
            g.flush();
            out.print('\n');
        }
        for (Compatibility.TopicFormats t : shown.values()) {
            g.writeStartObject();
            g.writeStringField("line", "topic");
            g.writeStringField("topic", t.topic());
            if (partitionOf.containsKey(t)) {
                g.writeNumberField("partition", partitionOf.get(t));
            }
            g.writeNumberField("partitions", t.partitions());
            g.writeNumberField("batches", t.batches());
            g.writeNumberField("records", t.records());
            g.writeArrayFieldStart("batchesByMagic");
            for (long n : t.batchesByMagic()) {
                g.writeNumber(n);
            }
            g.writeEndArray();
            g.writeNumberField("otherMagicBatches", t.otherMagicBatches());
            g.writeObjectFieldStart("codecs");
            for (Map.Entry<CompressionType, Long> e : t.codecs().entrySet()) {
                g.writeNumberField(e.getKey().toString().toLowerCase(Locale.ROOT), e.getValue());
            }
            if (t.unknownCodecBatches() > 0) {
                g.writeNumberField(FormatInventory.UNKNOWN_CODEC, t.unknownCodecBatches());
            }
            g.writeEndObject();
            g.writeNumberField("idempotentBatches", t.idempotentBatches());
            g.writeNumberField("transactionalBatches", t.transactionalBatches());
            g.writeObjectFieldStart("controlBatches");
            for (Map.Entry<String, Long> e : t.controlTypes().entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeNumberField("deleteHorizonBatches", t.deleteHorizonBatches());
            g.writeNumberField("logAppendTimeBatches", t.logAppendTimeBatches());
            if (t.headersCounted()) {
                g.writeNumberField("recordsWithHeaders", t.recordsWithHeaders());
            } else {
                g.writeNullField("recordsWithHeaders");
            }
            g.writeNumberField("unknownTaggedFields", t.unknownTaggedFields());
            g.writeArrayFieldStart("recordVersions");
            for (FormatInventory.RecordVersion v : t.recordVersions().values()) {
                g.writeStartObject();
                g.writeNumberField("type", v.type());
                g.writeStringField("name", v.name());
                g.writeNumberField("version", v.version());
                g.writeBooleanField("known", v.known());
                g.writeNumberField("records", v.count());
                g.writeNumberField("partitions", t.partitionsWith().get(v.type() + "/" + v.version()));
                PartitionsCommand.writeTime(g, "firstTimestamp", v.firstTimestamp());
                PartitionsCommand.writeTime(g, "lastTimestamp", v.lastTimestamp());
                g.writeArrayFieldStart("taggedFields");
                for (FormatInventory.TaggedField f : v.taggedFields()) {
                    g.writeStartObject();
                    g.writeNumberField("tag", f.tag());
                    if (f.known()) {
                        g.writeStringField("field", f.field());
                    } else {
                        g.writeNullField("field");
                    }
                    if (f.struct().isEmpty()) {
                        g.writeNullField("struct");
                    } else {
                        g.writeStringField("struct", f.struct());
                    }
                    g.writeNumberField("records", f.count());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.flush();
            out.print('\n');
        }
    }

    private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String s : values) {
            g.writeString(s);
        }
        g.writeEndArray();
    }
}
