package io.segscope.inspector.cmd;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.input.Inputs;
import io.segscope.inspector.input.Target;
import io.segscope.inspector.output.ByteFormat;
import io.segscope.inspector.output.DumpWriter;
import io.segscope.inspector.output.JsonlDumpWriter;
import io.segscope.inspector.output.KafkaDumpWriter;
import io.segscope.inspector.output.RecordContent;
import io.segscope.inspector.output.TextDumpWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code segscope dump}: prints the batches and records of segments, decoded where segscope can. */
@Command(name = "dump", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the batches and records of Kafka log segments.",
            "PATH is a .log (or index, snapshot) file, a partition dir, a broker log dir,",
            "or an archive of one (.tar, .tar.gz/.tgz, .tar.bz2, .tar.zst, .zip), read",
            "in place. Records of __consumer_offsets, __transaction_state,",
            "__share_group_state and the KRaft metadata log are decoded with Kafka's",
            "field names; other topics' keys and values print as text when printable",
            "UTF-8, else base64.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:everything read", "1:damage found (the rest of the file or batch was skipped)",
            "2:usage error", "3:I/O error"})
public final class DumpCommand implements Callable<Integer> {
    enum Format { text, kafka, jsonl }

    enum Decoder { auto, offsets, transactions, share, metadata, none }

    /** How a file's records are decoded. */
    private record Decoding(CoordinatorRecordDecoder coordinator, boolean metadata) {
        static final Decoding NONE = new Decoding(null, false);
    }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Segment or side file, partition dir, log dir, or archive.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "text",
            description = "text (default), kafka (the lines of kafka-dump-log.sh --deep-iteration with the topic's decoder), or jsonl.")
    Format format;

    @Option(names = "--key-format", defaultValue = "text", description = "Keys of other topics: text (UTF-8, else base64), hex or base64.")
    String keyFormat;

    @Option(names = "--value-format", defaultValue = "text", description = "Values and header values of other topics: text, hex or base64.")
    String valueFormat;

    @Option(names = "--decoder", defaultValue = "auto",
            description = "Record decoder: auto (by topic name), offsets, transactions, share, metadata (KRaft) or none.")
    Decoder decoder;

    @Option(names = "--print-data-log", description = "With --format kafka: print keys and payloads of other topics, as Kafka's --print-data-log.")
    boolean printDataLog;

    @Option(names = "--group", paramLabel = "GROUP", description = "Only coordinator records of this group (or transactional id). Repeatable.")
    List<String> groups;

    @Option(names = "--topic", paramLabel = "TOPIC",
            description = "Coordinator topics: only records whose key names this topic; others: only these topics' partitions. Repeatable.")
    List<String> topics;

    @Option(names = "--partition", paramLabel = "N", description = "Like --topic, for partition numbers. Repeatable.")
    List<Integer> partitions;

    @Option(names = "--type", paramLabel = "TYPE",
            description = "Only these record types: names such as OffsetCommit, GroupMetadata, ConsumerGroupMemberMetadata, TransactionLog, control, COMMIT; or type numbers. Repeatable.")
    List<String> types;

    @Option(names = "--from-offset", paramLabel = "OFFSET", defaultValue = "-9223372036854775808", description = "First offset to print.")
    long fromOffset;

    @Option(names = "--to-offset", paramLabel = "OFFSET", defaultValue = "9223372036854775807", description = "Last offset to print.")
    long toOffset;

    @Option(names = "--from-time", paramLabel = "TIME", converter = TimeConverter.class,
            description = "Earliest record timestamp (ISO-8601, e.g. 2026-11-30T02:00:00Z, or epoch ms).")
    Long fromTime;

    @Option(names = "--to-time", paramLabel = "TIME", converter = TimeConverter.class, description = "Latest record timestamp.")
    Long toTime;

    @Option(names = "--max-bytes", paramLabel = "BYTES", defaultValue = "9223372036854775807",
            description = "Read at most this many bytes of each file (batches that end past it are not read).")
    long maxBytes;

    @Option(names = "--files", paramLabel = "KIND", split = ",", defaultValue = "log",
            description = "Kinds of file taken from directories: log, index, timeindex, txnindex, snapshot (default log).")
    List<String> fileKinds;

    @Option(names = "--include", paramLabel = "WHAT", split = ",",
            description = "Also read what Kafka would delete or ignore: deleted, cleaned, swap, delete-dirs, future-dirs, stray-dirs, all.")
    List<String> include;

    @picocli.CommandLine.Mixin
    DecompressionOption decompression;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ByteFormat kf = CliOptions.byteFormat(keyFormat, "--key-format");
        ByteFormat vf = CliOptions.byteFormat(valueFormat, "--value-format");
        RecordFilter filter = new RecordFilter(groups, topics, partitions, types, fromOffset, toOffset,
                fromTime == null ? Long.MIN_VALUE : fromTime, toTime == null ? Long.MAX_VALUE : toTime);
        boolean filtered = filter.looksInsideRecords() || groups != null || topics != null || partitions != null
                || fromOffset != Long.MIN_VALUE || toOffset != Long.MAX_VALUE;
        DumpWriter writer = switch (format) {
            case kafka -> new KafkaDumpWriter(out, err, printDataLog);
            case jsonl -> new JsonlDumpWriter(out, err, kf, vf);
            default -> new TextDumpWriter(out, err, kf, vf, filtered);
        };
        Set<FileKind> kinds = CliOptions.fileKinds(fileKinds);
        int exit = Segscope.EXIT_OK;
        try (Inputs inputs = Inputs.resolve(paths, CliOptions.include(include), kinds)) {
            for (FormatException p : inputs.problems()) {
                err.print(p.getMessage() + "\n");
            }
            long total = 0;
            for (Target t : inputs.targets()) {
                total += t.file().size();
            }
            Progress progress = new Progress(err, Progress.stderrIsTerminal(), total);
            long[] done = new long[2];
            for (Target t : inputs.targets()) {
                Decoding decoding = decoding(t);
                if (!filter.acceptsTarget(t, decoding.coordinator() != null)) {
                    continue;
                }
                if (t.holdsRecords()) {
                    if (!dumpRecords(t, decoding, writer, filter, progress, done)) {
                        exit = Segscope.EXIT_FINDINGS;
                    }
                } else {
                    writer.sideFile(t);
                }
                done[0] += t.file().size();
                writer.flush();
                if (out.checkError()) {
                    break; // the reader of stdout has gone (e.g. `| head`): stop reading
                }
            }
            progress.done();
        } finally {
            writer.flush();
        }
        return exit;
    }

    private Decoding decoding(Target t) {
        CoordinatorTopic topic = switch (decoder) {
            case offsets -> CoordinatorTopic.CONSUMER_OFFSETS;
            case transactions -> CoordinatorTopic.TRANSACTION_STATE;
            case share -> CoordinatorTopic.SHARE_GROUP_STATE;
            case none, metadata -> null;
            default -> t.topic().map(CoordinatorTopic::forTopicName).orElse(null);
        };
        if (topic != null) {
            return new Decoding(CoordinatorRecordDecoder.forTopic(topic), false);
        }
        boolean metadataLog = decoder == Decoder.metadata || decoder == Decoder.auto
                && (t.kraftSnapshot() || t.partition().map(p -> p.isMetadataLog()).orElse(false));
        return metadataLog ? new Decoding(null, true) : Decoding.NONE;
    }

    /** Dumps one record file; false when damage stopped part of it. */
    private boolean dumpRecords(Target t, Decoding decoding, DumpWriter writer, RecordFilter filter,
                                Progress progress, long[] done) {
        boolean lazyBatches = filter.looksInsideRecords() || decoding.coordinator() != null && (groups != null
                || topics != null || partitions != null);
        boolean clean = true;
        writer.beginFile(t);
        long fileSize = t.file().size();
        long validBytes = 0;
        String stopped = null;
        try (ByteSource source = t.file().open();
             BatchReader reader = new BatchReader(source, decompression.readerOptions())) {
            while (true) {
                boolean more;
                try {
                    more = reader.next();
                } catch (FormatException e) {
                    stopped = e.getMessage() + "; the rest of the file was not read (run `segscope verify` to find where good data resumes)";
                    clean = false;
                    break;
                }
                if (!more) {
                    break;
                }
                Batch b = reader.batch();
                if (b.position() + b.sizeInBytes() > maxBytes) {
                    break;
                }
                validBytes = b.position() + b.sizeInBytes();
                if (!filter.batchInRange(b.magic() >= 2 ? b.baseOffset() : b.lastOffset(), b.lastOffset())) {
                    continue;
                }
                boolean batchShown = false;
                if (!lazyBatches) {
                    writer.batch(t, b);
                    batchShown = true;
                }
                try {
                    RecordIterator it = b.records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        RecordContent content = content(b, r, decoding);
                        if (!filter.accepts(r, content)) {
                            continue;
                        }
                        if (!batchShown) {
                            writer.batch(t, b);
                            batchShown = true;
                        }
                        writer.record(t, b, r, content);
                        done[1]++;
                    }
                } catch (FormatException e) {
                    spec.commandLine().getErr().print(e.getMessage() + "; the rest of this batch's records were skipped\n");
                    clean = false;
                }
                progress.update(done[0] + validBytes, done[1]);
            }
            if (stopped == null && reader.tail() != null && !reader.tail().isClean() && maxBytes == Long.MAX_VALUE) {
                validBytes = reader.tail().validBytes();
            }
            writer.endFile(t, stopped == null ? reader.tail() : null, validBytes,
                    maxBytes == Long.MAX_VALUE ? fileSize : Math.min(fileSize, validBytes), stopped);
        } catch (FormatException e) {
            writer.endFile(t, null, validBytes, fileSize, e.getMessage());
            clean = false;
        }
        return clean;
    }

    private static RecordContent content(Batch b, LogRecord r, Decoding decoding) {
        if (b.isControl()) {
            try {
                short typeId = ControlRecord.typeId(b, r);
                return new RecordContent.Control(ControlRecord.Type.of(typeId), typeId, ControlValueDecoder.decode(b, r), null);
            } catch (FormatException e) {
                return new RecordContent.Control(ControlRecord.Type.UNKNOWN, (short) -1, null, e.detail());
            }
        }
        if (decoding.metadata()) {
            return new RecordContent.Metadata(MetadataRecordDecoder.decode(r));
        }
        CoordinatorRecordDecoder decoder = decoding.coordinator();
        if (decoder == null) {
            return RecordContent.Plain.INSTANCE;
        }
        return new RecordContent.Coordinator(decoder.decode(r.hasKey() ? r.buffer() : null, r.keyOffset(), r.keyLength(),
                r.hasValue() ? r.buffer() : null, r.valueOffset(), r.valueLength()));
    }
}
