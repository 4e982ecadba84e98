package io.segscope.inspector.cmd;

import io.segscope.format.error.FormatException;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.input.Inputs;
import io.segscope.inspector.output.ByteDumpWriter;
import io.segscope.inspector.output.ByteFormat;
import io.segscope.inspector.output.DumpWriter;
import io.segscope.inspector.output.JsonlDumpWriter;
import io.segscope.inspector.output.KafkaDumpWriter;
import io.segscope.inspector.output.OutputBytes;
import io.segscope.inspector.output.ParallelDump;
import io.segscope.inspector.output.TextDumpWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
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

    enum Decoder {
        auto, offsets, transactions, share, metadata, remote, none;

        DecoderChoice choice() {
            return this == remote ? DecoderChoice.REMOTE_LOG_METADATA
                    : DecoderChoice.valueOf(name().toUpperCase(java.util.Locale.ROOT));
        }
    }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Segment or side file, partition dir, log dir, or archive.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "text",
            description = "text (default), kafka (the lines of kafka-dump-log.sh --deep-iteration with the topic's decoder), or jsonl.")
    Format format;

    @Option(names = "--key-format", defaultValue = "text", completionCandidates = OptionValues.ByteFormatCandidates.class,
            description = "Keys of other topics: text (UTF-8, else base64), hex or base64.")
    ByteFormat keyFormat;

    @Option(names = "--value-format", defaultValue = "text", completionCandidates = OptionValues.ByteFormatCandidates.class,
            description = "Values and header values of other topics: text, hex or base64.")
    ByteFormat valueFormat;

    @Option(names = "--decoder", defaultValue = "auto",
            description = "Record decoder: auto (by topic name), offsets, transactions, share, metadata (KRaft),"
                    + " remote (__remote_log_metadata) or none.")
    Decoder decoder;

    @Option(names = "--decoder-path", paramLabel = "DIR|JAR",
            description = "Load record decoder plugins (io.segscope.format.walk.spi.RecordDecoder, found with"
                    + " ServiceLoader) from this jar, or from this dir (its jars, and the dir itself as a class dir)."
                    + " Plugins on the classpath are always loaded. They decode the user topics they handle (--decoder auto)."
                    + " Repeatable.")
    List<Path> decoderPath = new java.util.ArrayList<>();

    @Option(names = "--print-data-log", description = "With --format kafka: print keys and payloads of other topics, as Kafka's --print-data-log.")
    boolean printDataLog;

    @Option(names = "--group", paramLabel = "GROUP", description = "Only coordinator records of this group (or transactional id). Repeatable.")
    List<String> groups;

    @Option(names = "--topic", paramLabel = "TOPIC",
            description = "Coordinator topics: only records whose key names this topic; others: only these topics' partitions. Repeatable.")
    List<String> topics;

    @Option(names = "--partition", paramLabel = "N", description = "Like --topic, for partition numbers. Repeatable.")
    List<Integer> partitions;

    @Option(names = "--type", paramLabel = "TYPE", converter = TypeName.class, completionCandidates = TypeName.class,
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
    List<OptionValues.FileChoice> fileKinds;

    @Option(names = "--include", paramLabel = "WHAT", split = ",", converter = OptionValues.IncludeConverter.class,
            completionCandidates = OptionValues.IncludeConverter.class,
            description = "Also read what Kafka would delete or ignore: deleted, cleaned, swap, delete-dirs, future-dirs, stray-dirs, all.")
    List<OptionValues.IncludeChoice> include;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads that read, decode and format (the output is the same whatever N); default: the"
                    + " processors, at most 8, for inputs of " + PARALLEL_MIN_MIB + " MiB or more on disk. 1: one thread.")
    Integer threads;

    @picocli.CommandLine.Mixin
    OptionValues.ReadOptions read;

    /** Below this much input, one thread is done before several have started. */
    static final int PARALLEL_MIN_MIB = 16;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** {@code --type} values: known record type names (any case) or numbers; a typo suggests the nearest names. */
    static final class TypeName implements CommandLine.ITypeConverter<String>, Iterable<String> {
        @Override
        public String convert(String value) {
            if (!RecordFilter.isKnownType(value)) {
                throw new CommandLine.TypeConversionException("unknown record type '" + value + "'; nearest known: "
                        + String.join(", ", RecordFilter.nearestTypes(value, 3)) + " (or a type number)");
            }
            return value;
        }

        @Override
        public java.util.Iterator<String> iterator() {
            return new java.util.TreeSet<>(RecordFilter.knownTypes()).iterator();
        }
    }

    /** Options that contradict each other or select nothing are usage errors, not silent no-ops. */
    private void checkOptions() {
        CommandLine cl = spec.commandLine();
        CommandLine.ParseResult parsed = cl.getParseResult();
        if (fromOffset > toOffset) {
            throw new CommandLine.ParameterException(cl, "--from-offset " + fromOffset + " is after --to-offset " + toOffset
                    + ": no record would be printed");
        }
        if (fromTime != null && toTime != null && fromTime > toTime) {
            throw new CommandLine.ParameterException(cl, "--from-time is after --to-time: no record would be printed");
        }
        if (threads != null && (threads < 1 || threads > 64)) {
            throw new CommandLine.ParameterException(cl, "--threads must be 1 to 64, not " + threads);
        }
        if (maxBytes <= 0) {
            throw new CommandLine.ParameterException(cl, "--max-bytes must be at least 1, not " + maxBytes);
        }
        if (printDataLog && format != Format.kafka) {
            throw new CommandLine.ParameterException(cl, "--print-data-log applies to --format kafka only"
                    + " (text and jsonl always print keys and values)");
        }
        if (format == Format.kafka && (parsed.hasMatchedOption("--key-format") || parsed.hasMatchedOption("--value-format"))) {
            throw new CommandLine.ParameterException(cl, "--key-format and --value-format apply to text and jsonl;"
                    + " --format kafka prints keys and values as Kafka's tool does");
        }
    }

    @Override
    public Integer call() {
        checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RecordFilter filter = new RecordFilter(groups, topics, partitions, types, fromOffset, toOffset,
                fromTime == null ? Long.MIN_VALUE : fromTime, toTime == null ? Long.MAX_VALUE : toTime);
        java.io.OutputStream bytes = OutputBytes.of(out);
        DumpWriter writer = switch (format) {
            case kafka -> new KafkaDumpWriter(bytes, err, printDataLog, !filter.isFiltering());
            case jsonl -> new JsonlDumpWriter(bytes, err, keyFormat, valueFormat);
            default -> new TextDumpWriter(bytes, err, keyFormat, valueFormat, filter.isFiltering());
        };
        Set<FileKind> kinds = OptionValues.FileChoice.kinds(fileKinds);
        boolean tellTransactions = format != Format.kafka;
        try (Inputs inputs = Inputs.resolve(paths, OptionValues.IncludeChoice.includes(include), kinds,
                read.as(), tellTransactions ? read.readerOptions() : null)) {
            for (FormatException p : inputs.unreadablePaths()) {
                err.print(p.getMessage() + "\n");
            }
            for (FormatException p : inputs.problems()) {
                err.print(p.getMessage() + "\n");
            }
            long total = 0;
            for (LogFile f : inputs.files()) {
                total += f.file().size();
            }
            Progress progress = new Progress(err, Progress.stderrIsTerminal(), total);
            io.segscope.format.walk.spi.RecordDecoders plugins = DecoderPath.load(decoderPath, spec.commandLine());
            java.util.function.Supplier<RecordWalk> walks = () -> new RecordWalk(read.readerOptions(), decoder.choice(),
                    filter, maxBytes, plugins);
            int n = threadsFor(inputs.files(), total, plugins, writer);
            boolean clean;
            long passed;
            int unreadable;
            if (n > 1) {
                ParallelDump.Result r = ParallelDump.walk(inputs.files(), n, walks,
                        tellTransactions ? inputs::transactionOutcomes : null, read.readerOptions(), (ByteDumpWriter) writer,
                        (done, records) -> progress.update(done, records));
                clean = r.clean();
                passed = r.recordsPassed();
                unreadable = r.unreadableFiles();
            } else {
                RecordWalk walk = walks.get();
                if (tellTransactions) {
                    // an archive's listing pass read the markers: its partitions are not read twice
                    walk.tellTransactions(inputs::transactionOutcomes);
                }
                clean = walk.walk(ParallelDump.unmappedAfterUse(inputs.files(), 1), new ProgressSink(writer, progress));
                passed = walk.recordsPassed();
                unreadable = walk.unreadableFiles();
            }
            progress.done();
            writer.flush();
            clean &= !writer.sideFileDamaged();
            for (FormatException t : inputs.truncations()) {
                // what was read is printed; the cut is damage, like a torn tail: exit 1, never 0
                err.print(t.getMessage() + "\n");
                clean = false;
            }
            err.flush();
            if (filter.isFiltering() && passed == 0 && inputs.unreadablePaths().isEmpty()) {
                err.print("dump: no record matched the filters in " + inputs.files().size() + " file(s)\n");
            }
            if (!inputs.unreadablePaths().isEmpty() || unreadable > 0) {
                return Segscope.EXIT_IO;
            }
            return clean ? Segscope.EXIT_OK : Segscope.EXIT_FINDINGS;
        } finally {
            writer.flush();
        }
    }

    /**
     * Threads for this run: several only for files on disk (an archive's entries or a stream are
     * read once, in order), without decoder plugins (which need not be thread-safe), with a writer
     * whose output pieces join ({@link ByteDumpWriter#parallelizable()}), and for enough input.
     */
    private int threadsFor(List<LogFile> files, long totalBytes, io.segscope.format.walk.spi.RecordDecoders plugins,
                           DumpWriter writer) {
        int n = threads != null ? threads
                : totalBytes >= (long) PARALLEL_MIN_MIB << 20 ? Math.min(8, Runtime.getRuntime().availableProcessors()) : 1;
        if (n <= 1 || !plugins.decoders().isEmpty() || !(writer instanceof ByteDumpWriter b) || !b.parallelizable()) {
            return 1;
        }
        for (LogFile f : files) {
            if (f.kind().holdsRecords() && (!(f.file() instanceof io.segscope.format.logdir.PathEntry) || f.file().isStream())) {
                return 1;
            }
        }
        return n;
    }

    /** The writer, with progress on stderr and a stop when the reader of stdout has gone (e.g. {@code | head}). */
    private record ProgressSink(DumpWriter writer, Progress progress) implements RecordSink {
        @Override
        public void beginFile(LogFile file) {
            writer.beginFile(file);
        }

        @Override
        public void batch(LogFile file, Batch batch, TransactionOutcome transaction) {
            writer.batch(file, batch, transaction);
        }

        @Override
        public void endBatch(LogFile file, Batch batch, long recordsPassed) {
            writer.endBatch(file, batch, recordsPassed);
        }

        @Override
        public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
            writer.record(file, batch, record, content);
        }

        @Override
        public void problem(LogFile file, String message) {
            writer.problem(file, message);
        }

        @Override
        public void endFile(LogFile file, Tail tail, long validBytes, long fileSize, String error) {
            writer.endFile(file, tail, validBytes, fileSize, error);
            writer.flush();
        }

        @Override
        public void sideFile(LogFile file) {
            writer.sideFile(file);
            writer.flush();
        }

        @Override
        public void progress(long bytes, long records) {
            progress.update(bytes, records);
        }

        @Override
        public boolean wants(LogFile file, Batch batch) {
            return writer.isOpen();
        }

        @Override
        public boolean isOpen() {
            return writer.isOpen();
        }
    }
}
