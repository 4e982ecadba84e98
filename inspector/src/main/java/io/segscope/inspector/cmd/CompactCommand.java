package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.compact.CleanerDecision;
import io.segscope.format.compact.CompactResult;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.CompactStats;
import io.segscope.format.compact.Compactor;
import io.segscope.format.error.FormatException;
import io.segscope.format.inventory.MetadataTopics;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileListing;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;
import io.segscope.format.logdir.PathEntry;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.input.Inputs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code segscope compact}: compacts partitions as Kafka 4.4.0's log cleaner does
 * ({@link io.segscope.format.compact}), into a new directory, or tells what the cleaner would do
 * ({@code --dry-run}), or writes the minimal partition the group coordinator needs
 * ({@code --snapshot}). Settings default to the topic's configs in the log dir's KRaft metadata
 * log, else to Kafka's defaults for the topic.
 */
@Command(name = "compact", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Compact partitions as Kafka 4.4.0's log cleaner does, byte for byte.",
            "The output goes to a new directory (inputs are never written); --dry-run",
            "tells what a broker's cleaner would do.",
            "PATH is a partition dir, a log dir (its compacted partitions:",
            "__consumer_offsets, __transaction_state, __share_group_state and the topics",
            "whose cleanup.policy in the KRaft metadata log includes compact), or an",
            "archive of one (partitions are extracted to a temporary dir first). Settings",
            "are named after Kafka's; each defaults to the topic's config in the metadata",
            "log, else to Kafka's default.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success",
            "1:a partition could not be compacted, or its input is damaged (a wrong CRC, a torn or damaged batch; on stderr)",
            "2:usage error", "3:I/O error"})
public final class CompactCommand implements Callable<Integer> {
    enum Format { text, jsonl }

    static final Set<String> COMPACTED_INTERNAL = Set.of("__consumer_offsets", "__transaction_state", "__share_group_state");
    /** offsets.topic.segment.bytes, transaction.state.log.segment.bytes, share.coordinator.state.topic.segment.bytes. */
    static final int INTERNAL_SEGMENT_BYTES = 100 * 1024 * 1024;
    static final double DEFAULT_MIN_CLEANABLE_RATIO = 0.5;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Partition dir, log dir, or archive.")
    List<Path> paths;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Write each compacted partition to DIR/<partition> (under a temporary name, renamed when complete; "
                    + "an existing partition there is an error unless --force). Not inside an input.")
    Path out;

    @Option(names = "--force",
            description = "Replace an existing DIR/<partition>, once the new one is complete (an interrupted run leaves the old one).")
    boolean force;

    @Option(names = "--dry-run",
            description = "Write nothing: what a broker's cleaner would decide now (dirty ratio, first uncleanable offset) "
                    + "and the figures of a cleaning.")
    boolean dryRun;

    @Option(names = "--snapshot",
            description = "Write the minimal partition the group coordinator needs: the last record of each key with a value, "
                    + "committed transactions only, no markers (not Kafka's cleaner output).")
    boolean snapshot;

    @Option(names = "--topic", paramLabel = "TOPIC",
            description = "Only partitions of this topic (compacted or not: named, it is cleaned as if compacted). Repeatable.")
    List<String> topics;

    @Option(names = "--now", paramLabel = "TIME", converter = TimeConverter.class,
            description = "The cleaner's clock (ISO-8601 or epoch ms; default: the current time): delete horizons, "
                    + "compaction lags, producer expiration.")
    Long now;

    @Option(names = "--roll", description = "Clean the active (last) segment too, as after a roll (Kafka never cleans an active segment).")
    boolean roll;

    @Option(names = "--clean-up-to", paramLabel = "OFFSET", description = "Clean below this offset only (rounded down to a segment).")
    Long cleanUpTo;

    @Option(names = "--first-dirty-offset", paramLabel = "OFFSET",
            description = "The cleaner checkpoint to start from (default: the log dir's cleaner-offset-checkpoint, else the log start).")
    Long firstDirtyOffset;

    @Option(names = "--ignore-checkpoint", description = "Clean from the log start, whatever cleaner-offset-checkpoint says.")
    boolean ignoreCheckpoint;

    @Option(names = "--high-watermark", paramLabel = "OFFSET",
            description = "The high watermark (default: the log dir's replication-offset-checkpoint, else the log end).")
    Long highWatermark;

    @Option(names = "--delete-retention-ms", paramLabel = "MS", description = "delete.retention.ms (default 86400000).")
    Long deleteRetentionMs;

    @Option(names = "--min-compaction-lag-ms", paramLabel = "MS", description = "min.compaction.lag.ms (default 0).")
    Long minCompactionLagMs;

    @Option(names = "--max-compaction-lag-ms", paramLabel = "MS",
            description = "max.compaction.lag.ms (default: none); --dry-run tells whether it forces a cleaning.")
    Long maxCompactionLagMs;

    @Option(names = "--min-cleanable-dirty-ratio", paramLabel = "RATIO",
            description = "min.cleanable.dirty.ratio for --dry-run's decision (default 0.5).")
    Double minCleanableDirtyRatio;

    @Option(names = "--segment-bytes", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "segment.bytes (default 104857600 for Kafka's internal topics, else 1073741824).")
    Long segmentBytes;

    @Option(names = "--segment-index-bytes", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "segment.index.bytes (default 10485760).")
    Long segmentIndexBytes;

    @Option(names = "--index-interval-bytes", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "index.interval.bytes (default 4096).")
    Long indexIntervalBytes;

    @Option(names = "--max-message-bytes", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "max.message.bytes: how far the cleaner's buffers grow (default 1048588).")
    Long maxMessageBytes;

    @Option(names = "--dedupe-buffer-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "log.cleaner.dedupe.buffer.size, for all threads (default 128MiB).")
    Long dedupeBufferSize;

    @Option(names = "--io-buffer-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "log.cleaner.io.buffer.size, for all threads (default 512KiB).")
    Long ioBufferSize;

    @Option(names = "--io-buffer-load-factor", paramLabel = "F",
            description = "log.cleaner.io.buffer.load.factor: how full the key map gets (default 0.9).")
    Double loadFactor;

    @Option(names = "--producer-id-expiration-ms", paramLabel = "MS",
            description = "producer.id.expiration.ms: producers idle longer are not active (default 86400000).")
    Long producerIdExpirationMs;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "log.cleaner.threads: partitions cleaned at once; each has the dedupe buffer's share (default 1).")
    int threads;

    @Option(names = "--kafka-rounds", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "The key map has exactly Kafka's capacity, so passes and output are Kafka's (default). "
                    + "--no-kafka-rounds: one map of the whole buffer (fewer passes when keys do not fit; output then differs).")
    boolean kafkaRounds;

    @Option(names = "--format", defaultValue = "text",
            description = "text (default: Kafka's cleaner statistics per pass) or jsonl (one object per partition).")
    Format format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One partition to compact. */
    record Target(String name, String topic, FileEntry dir, LogDir logDir, Map<String, String> configs) {
    }

    /** One partition done: its text (or JSON line), and whether it failed. */
    record Done(String output, String[] row, String error, boolean ioError, CompactStats stats, long nanos,
                List<io.segscope.format.error.Problem> damage) {
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        checkOptions();
        if (out != null) {
            Path realOut = Compactor.realPath(out);
            for (Path p : paths) {
                if (Files.isDirectory(p) && realOut.startsWith(p.toRealPath())) {
                    throw new CommandLine.ParameterException(spec.commandLine(),
                            "--out " + out + " is inside the input " + p + ": inputs are never written, choose a dir outside it");
                }
            }
        }
        long clock = now != null ? now : System.currentTimeMillis();
        boolean ioError = false;
        boolean failed = false;
        List<Path> extracted = new ArrayList<>();
        try (Inputs inputs = Inputs.resolve(paths, Include.none(), EnumSet.of(FileKind.LOG, FileKind.KRAFT_SNAPSHOT))) {
            for (FormatException e : inputs.unreadablePaths()) {
                err.print("compact: " + e.getMessage() + "\n");
                ioError = true;
            }
            // an archive cut short: its partitions may lack their last segments (compacted as read, and said)
            for (FormatException e : inputs.truncations()) {
                err.print("compact: " + e.getMessage() + "\n");
                ioError = true;
            }
            List<Target> targets = targets(inputs, err);
            if (targets.isEmpty()) {
                boolean metadataLog = inputs.files().stream().anyMatch(f -> f.partition().isPresent()
                        && f.partition().get().topic().equals("__cluster_metadata"));
                err.print("compact: no partition to compact under " + paths + (metadataLog
                        ? " (__cluster_metadata is the KRaft metadata log: Kafka's log cleaner never cleans it,"
                          + " snapshots replace it)" : "") + "\n");
                return ioError ? Segscope.EXIT_IO : Segscope.EXIT_USAGE;
            }
            if (out != null) {
                // two copies of a partition (several brokers' log dirs, two clusters) would go to one
                // DIR/<partition>: the second failed as "exists already", and with --force replaced the first
                Map<String, String> first = new HashMap<>();
                for (Target t : targets) {
                    String other = first.putIfAbsent(t.name(), t.dir().path());
                    if (other != null) {
                        throw new CommandLine.ParameterException(spec.commandLine(), "compact: " + t.name() + " is under two of the PATHs ("
                                + other + ", " + t.dir().path() + "): both would be written to " + out.resolve(t.name())
                                + "; compact each log dir to its own --out");
                    }
                }
            }
            long total = 0;
            for (Target t : targets) {
                total += logBytes(t);
            }
            Progress progress = new Progress(err, Progress.stderrIsTerminal(), total, "partitions");
            List<Done> done = run(targets, clock, extracted, progress, err);
            progress.done();
            CompactStatsTotals totals = new CompactStatsTotals();
            Table table = dryRun
                    ? new Table("PARTITION", "SEGMENTS", "BYTES", "DIRTY-SECTION", "CLEANABLE", "DIRTY-RATIO", "BROKER-CLEANS", "PASSES",
                        "BYTES-AFTER", "RECORDS", "RECORDS-AFTER")
                    : new Table("PARTITION", "SEGMENTS", "BYTES", "PASSES", "SEGMENTS-AFTER", "BYTES-AFTER", "RECORDS",
                        "RECORDS-AFTER", "OUT");
            // the table first (what was done), then Kafka's cleaner statistics of each pass (with their times)
            for (Done d : done) {
                if (d.error != null) {
                    err.print("compact: " + d.error + "\n");
                    failed |= !d.ioError;
                    ioError |= d.ioError;
                    continue;
                }
                table.add(d.row);
                totals.add(d);
                for (io.segscope.format.error.Problem p : d.damage) {
                    err.print("compact: " + p.message() + "\n");
                    // a zero-filled tail is what a crash leaves; anything else is damage the output does not hold
                    failed |= p.kind() != io.segscope.format.error.Violation.ZERO_TAIL;
                }
            }
            if (format == Format.text && totals.partitions > 0) {
                table.print(stdout);
                stdout.print("\n");
            }
            for (Done d : done) {
                if (d.error == null) {
                    stdout.print(d.output);
                }
            }
            if (format == Format.text && totals.partitions > 0) {
                stdout.print(totals.text());
                stdout.print(memory());
            }
            stdout.flush();
        } finally {
            for (Path p : extracted) {
                deleteTree(p);
            }
        }
        return ioError ? Segscope.EXIT_IO : failed ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
    }

    private void checkOptions() {
        CommandLine cl = spec.commandLine();
        if (dryRun == (out != null)) {
            throw new CommandLine.ParameterException(cl, dryRun ? "--dry-run writes nothing: drop --out"
                    : "give --out DIR (where the compacted partitions go) or --dry-run");
        }
        if (snapshot && dryRun) {
            throw new CommandLine.ParameterException(cl, "--snapshot writes a partition: it needs --out, not --dry-run");
        }
        if (force && dryRun) {
            throw new CommandLine.ParameterException(cl, "--force replaces an output: it needs --out, not --dry-run");
        }
        if (threads < 1 || threads > 64) {
            throw new CommandLine.ParameterException(cl, "--threads must be 1..64, not " + threads);
        }
        if (roll && cleanUpTo != null) {
            throw new CommandLine.ParameterException(cl, "--roll cleans every segment, --clean-up-to stops earlier: give one");
        }
        if (ignoreCheckpoint && firstDirtyOffset != null) {
            throw new CommandLine.ParameterException(cl, "--ignore-checkpoint and --first-dirty-offset both say where to start: give one");
        }
        for (Long v : new Long[] {cleanUpTo, firstDirtyOffset, highWatermark, deleteRetentionMs, minCompactionLagMs,
            maxCompactionLagMs, producerIdExpirationMs}) {
            if (v != null && v < 0) {
                throw new CommandLine.ParameterException(cl, "offsets and times must not be negative: " + v);
            }
        }
        if (minCleanableDirtyRatio != null && !(minCleanableDirtyRatio >= 0 && minCleanableDirtyRatio <= 1)) {
            throw new CommandLine.ParameterException(cl, "--min-cleanable-dirty-ratio must be in [0, 1], not " + minCleanableDirtyRatio);
        }
        try {
            CompactSettings s = CompactSettings.defaults(0).withCleanerThreads(threads).withKafkaRounds(kafkaRounds);
            if (dedupeBufferSize != null) {
                s = s.withDedupeBufferBytes(dedupeBufferSize);
            }
            if (loadFactor != null) {
                s.withLoadFactor(loadFactor);
            }
            if (ioBufferSize != null && ioBufferSize <= Integer.MAX_VALUE) {
                s.withIoBufferBytes((int) (long) ioBufferSize);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        // CompactSettings' bounds (segment.bytes: Kafka's minimum, one legacy record's overhead;
        // an index of at least one entry), checked once here rather than failing every partition
        if (segmentBytes != null && segmentBytes < 14) {
            throw new CommandLine.ParameterException(cl, "--segment-bytes must be at least 14 (Kafka's minimum segment.bytes), not " + segmentBytes);
        }
        if (segmentIndexBytes != null && segmentIndexBytes < 8) {
            throw new CommandLine.ParameterException(cl, "--segment-index-bytes must be at least 8 (one index entry), not " + segmentIndexBytes);
        }
        intOption(segmentBytes, "--segment-bytes");
        intOption(segmentIndexBytes, "--segment-index-bytes");
        intOption(indexIntervalBytes, "--index-interval-bytes");
        intOption(maxMessageBytes, "--max-message-bytes");
        intOption(ioBufferSize, "--io-buffer-size");
    }

    private void intOption(Long v, String name) {
        if (v != null && v > Integer.MAX_VALUE) {
            throw new CommandLine.ParameterException(spec.commandLine(), name + " must be at most " + Integer.MAX_VALUE + " bytes, not " + v);
        }
    }

    // ---------------------------------------------------------------- what to compact

    private List<Target> targets(Inputs inputs, PrintWriter err) {
        Map<String, MetadataTopics> metadata = new HashMap<>();
        Map<String, List<LogFile>> metadataFiles = new LinkedHashMap<>();
        Map<String, FileEntry> dirs = new LinkedHashMap<>();
        Map<String, TopicPartitionName> names = new HashMap<>();
        for (LogFile f : inputs.files()) {
            if (f.partition().isEmpty()) {
                continue;
            }
            FileEntry dir = f.file().parent();
            if (dir == null) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        f.path() + ": compact reads whole partition dirs; give the dir holding it");
            }
            TopicPartitionName tp = f.partition().get();
            if (tp.topic().equals("__cluster_metadata")) {
                metadataFiles.computeIfAbsent(parentPath(dir.path()), x -> new ArrayList<>()).add(f);
                continue;
            }
            dirs.putIfAbsent(dir.path(), dir);
            names.putIfAbsent(dir.path(), tp);
        }
        // a partition dir named on its own: its log dir's metadata log, when it sits beside it
        for (String dir : dirs.keySet()) {
            String logDir = parentPath(dir);
            Path metadataDir = Path.of(logDir, "__cluster_metadata-0");
            if (!metadataFiles.containsKey(logDir) && dirs.get(dir) instanceof PathEntry && Files.isDirectory(metadataDir)) {
                FileListing listing = new FileListing(EnumSet.of(FileKind.LOG, FileKind.KRAFT_SNAPSHOT));
                try {
                    new LogScanner(Include.none()).scan(metadataDir, listing);
                    metadataFiles.put(logDir, listing.files());
                } catch (FormatException e) {
                    err.print("compact: " + e.getMessage() + "\n");
                }
            }
        }
        metadataFiles.forEach((logDir, files) -> {
            try {
                metadata.put(logDir, MetadataTopics.replay(files));
            } catch (FormatException e) {
                err.print("compact: the metadata log of " + logDir + " could not be read (" + e.getMessage()
                        + "): Kafka's defaults are used\n");
            }
        });
        Map<String, LogDir> logDirs = new HashMap<>();
        for (LogDir d : inputs.logDirs()) {
            logDirs.put(d.root().path(), d);
        }
        List<Target> out = new ArrayList<>();
        int skipped = 0;
        for (Map.Entry<String, FileEntry> e : dirs.entrySet()) {
            TopicPartitionName tp = names.get(e.getKey());
            String logDir = parentPath(e.getKey());
            MetadataTopics m = metadata.get(logDir);
            Map<String, String> configs = m == null ? Map.of() : m.configs(tp.topic());
            boolean named = paths.stream().anyMatch(p -> p.toString().replaceAll("/+$", "").equals(e.getKey()));
            boolean compacted = COMPACTED_INTERNAL.contains(tp.topic())
                    || configs.getOrDefault("cleanup.policy", "").contains("compact");
            if (topics != null && !topics.contains(tp.topic())) {
                continue;
            }
            if (!compacted && !named && topics == null) {
                skipped++;
                continue;
            }
            out.add(new Target(tp.topic() + "-" + tp.partition(), tp.topic(), e.getValue(), logDirs.get(logDir), configs));
        }
        if (skipped > 0) {
            err.print("compact: " + skipped + " partition" + (skipped == 1 ? "" : "s")
                    + " of topics whose cleanup.policy is not compact left alone (name one, or --topic, to clean it anyway)\n");
        }
        out.sort(Comparator.comparing(Target::topic).thenComparingInt(t -> partitionOf(t.name())));
        return out;
    }

    /** The size of a partition's segments. */
    private static long logBytes(Target t) {
        long n = 0;
        for (FileEntry f : t.dir().children()) {
            n += f.name().endsWith(".log") ? f.size() : 0;
        }
        return n;
    }

    private static int partitionOf(String name) {
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    }

    private static String parentPath(String path) {
        int i = path.lastIndexOf('/');
        return i < 0 ? "." : i == 0 ? "/" : path.substring(0, i);
    }

    // ---------------------------------------------------------------- compacting

    private List<Done> run(List<Target> targets, long clock, List<Path> extracted, Progress progress, PrintWriter err) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, targets.size()), r -> {
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } finally {
                    io.segscope.format.record.Decompressor.releaseThread();
                }
            }, "segscope-compact");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Done>> futures = new ArrayList<>();
            for (Target t : targets) {
                futures.add(pool.submit(() -> one(t, clock, extracted)));
            }
            List<Done> done = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < futures.size(); i++) {
                try {
                    Done d = futures.get(i).get();
                    done.add(d);
                    bytes += logBytes(targets.get(i));
                    progress.update(bytes, i + 1);
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof Error error) {
                        throw error;
                    }
                    done.add(new Done(null, null, targets.get(i).name() + ": " + c, false, null, 0, List.of()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted");
                }
            }
            return done;
        } finally {
            pool.shutdownNow();
        }
    }

    private Done one(Target t, long clock, List<Path> extracted) {
        long start = System.nanoTime();
        try {
            Path dir = t.dir() instanceof PathEntry pe ? pe.toPath() : extract(t, extracted);
            CompactSettings settings = settings(t, clock);
            if (dryRun) {
                CleanerDecision decision = Compactor.decide(dir, settings);
                CompactResult r = Compactor.dryRun(dir, settings);
                return done(t, decision, r, settings, System.nanoTime() - start);
            }
            CompactResult r = snapshot ? Compactor.snapshot(dir, settings, out, force) : Compactor.compact(dir, settings, out, force);
            return done(t, null, r, settings, System.nanoTime() - start);
        } catch (FormatException e) {
            return new Done(null, null, t.name() + ": " + e.getMessage(), false, null, 0, List.of());
        } catch (NoSuchFileException e) {
            return new Done(null, null, t.name() + ": " + e.getFile() + ": no such file", true, null, 0, List.of());
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return new Done(null, null, t.name() + ": " + e.getFile() + " exists already: choose another --out, remove it, or give --force", true, null, 0, List.of());
        } catch (IOException | UncheckedIOException e) {
            return new Done(null, null, t.name() + ": " + e.getMessage(), true, null, 0, List.of());
        } catch (IllegalArgumentException | IllegalStateException e) {
            return new Done(null, null, t.name() + ": " + e.getMessage(), false, null, 0, List.of());
        }
    }

    /** The settings for one partition: options, else the topic's configs, else Kafka's defaults. */
    CompactSettings settings(Target t, long clock) {
        Map<String, String> c = t.configs();
        CompactSettings s = CompactSettings.defaults(clock);
        s = s.withDeleteRetentionMs(pick(deleteRetentionMs, c, "delete.retention.ms", s.deleteRetentionMs()))
                .withMinCompactionLagMs(pick(minCompactionLagMs, c, "min.compaction.lag.ms", s.minCompactionLagMs()))
                .withSegmentBytes((int) pick(segmentBytes, c, "segment.bytes",
                        COMPACTED_INTERNAL.contains(t.topic()) ? INTERNAL_SEGMENT_BYTES : s.segmentBytes()))
                .withMaxIndexBytes((int) pick(segmentIndexBytes, c, "segment.index.bytes", s.maxIndexBytes()))
                .withIndexIntervalBytes((int) pick(indexIntervalBytes, c, "index.interval.bytes", s.indexIntervalBytes()))
                .withMaxMessageBytes((int) pick(maxMessageBytes, c, "max.message.bytes", s.maxMessageBytes()))
                .withProducerIdExpirationMs(producerIdExpirationMs != null ? producerIdExpirationMs : s.producerIdExpirationMs())
                .withCleanerThreads(threads)
                .withKafkaRounds(kafkaRounds);
        s = s.withMaxCompactionLagMs(pick(maxCompactionLagMs, c, "max.compaction.lag.ms", s.maxCompactionLagMs()));
        if (dedupeBufferSize != null) {
            s = s.withDedupeBufferBytes(dedupeBufferSize);
        }
        if (ioBufferSize != null) {
            s = s.withIoBufferBytes((int) (long) ioBufferSize);
        }
        if (loadFactor != null) {
            s = s.withLoadFactor(loadFactor);
        }
        if (roll) {
            s = s.withCleanUpTo(Long.MAX_VALUE);
        } else if (cleanUpTo != null) {
            s = s.withCleanUpTo(cleanUpTo);
        }
        String key = t.topic() + "-" + partitionOf(t.name());
        Long hw = highWatermark != null ? highWatermark : checkpoint(t.logDir(), OffsetCheckpoint.REPLICATION_OFFSET, key);
        if (hw != null) {
            s = s.withHighWatermark(hw);
        }
        Long dirty = ignoreCheckpoint ? null
                : firstDirtyOffset != null ? firstDirtyOffset : checkpoint(t.logDir(), OffsetCheckpoint.CLEANER_OFFSET, key);
        if (dirty != null) {
            s = s.withFirstDirtyOffset(dirty);
        }
        return s;
    }

    private long pick(Long option, Map<String, String> configs, String name, long fallback) {
        if (option != null) {
            return option;
        }
        String v = configs.get(name);
        if (v != null) {
            try {
                return Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                // a config Kafka would have refused; the default stands
            }
        }
        return fallback;
    }

    private double minRatio(Target t) {
        if (minCleanableDirtyRatio != null) {
            return minCleanableDirtyRatio;
        }
        String v = t.configs().get("min.cleanable.dirty.ratio");
        if (v != null) {
            try {
                return Double.parseDouble(v.trim());
            } catch (NumberFormatException e) {
                // the default stands
            }
        }
        return DEFAULT_MIN_CLEANABLE_RATIO;
    }

    /** A partition's entry in a checkpoint file of its log dir, or null. */
    private static Long checkpoint(LogDir logDir, String file, String key) {
        if (logDir == null) {
            return null;
        }
        return logDir.file(file).map(f -> {
            try (ByteSource source = f.open()) {
                return OffsetCheckpoint.toMap(OffsetCheckpoint.read(source)).get(key);
            } catch (FormatException e) {
                return null;
            }
        }).orElse(null);
    }

    /** Copies a partition dir out of an archive into a temporary dir (deleted at the end). */
    private static Path extract(Target t, List<Path> extracted) throws IOException {
        Path tmp = Files.createTempDirectory("segscope-compact-in-");
        synchronized (extracted) {
            extracted.add(tmp);
        }
        Path dir = tmp.resolve(t.dir().name());
        Files.createDirectories(dir);
        for (FileEntry f : t.dir().children()) {
            if (!f.isDirectory()) {
                io.segscope.format.logdir.Copies.copy(f, dir.resolve(f.name()), true);
            }
        }
        return dir;
    }

    private static void deleteTree(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    // a temporary file left behind
                }
            });
        } catch (IOException e) {
            // nothing to delete
        }
    }

    // ---------------------------------------------------------------- output

    private Done done(Target t, CleanerDecision decision, CompactResult r, CompactSettings settings, long nanos) throws IOException {
        StringWriter w = new StringWriter();
        if (format == Format.jsonl) {
            json(w, t, decision, r, settings, nanos);
        } else {
            text(new PrintWriter(w), t, decision, r, settings, nanos);
        }
        return new Done(w.toString(), row(t, decision, r), null, false, r.stats(), nanos, r.inputDamage());
    }

    /** Kafka's cleaner statistics of each pass; nothing for a partition with nothing to clean. */
    private void text(PrintWriter w, Target t, CleanerDecision d, CompactResult r, CompactSettings settings, long nanos) {
        CompactStats s = r.stats();
        if (d != null && d.checkpointReset()) {
            w.printf(Locale.ROOT, "%s: cleaner checkpoint %d is outside the log [%d, %d]: reset to the log start, as Kafka does%n",
                    t.name(), d.checkpoint(), d.logStartOffset(), d.logEndOffset());
        }
        if (s.rounds().isEmpty()) {
            return;
        }
        w.printf(Locale.ROOT, "%s (%s)%s: %d pass%s in %.2f s, map of %,d slots (%s)%n", t.name(), t.dir().path(),
                r.partitionDir().map(p -> " -> " + p).orElse(""), s.rounds().size(), s.rounds().size() == 1 ? "" : "es",
                nanos / 1e9, s.rounds().get(0).mapSlots(), settings.kafkaRounds() ? "Kafka's capacity" : "the whole buffer");
        for (CompactStats.Round round : s.rounds()) {
            kafkaStats(w, t.name(), round);
        }
        w.printf("%n");
    }

    /** The partition's row of the table at the end. */
    private String[] row(Target t, CleanerDecision d, CompactResult r) {
        CompactStats s = r.stats();
        long bytes = s.bytesRead();
        String in = s.rounds().isEmpty() ? "-" : String.format(Locale.ROOT, "%,d", bytes);
        String after = s.rounds().isEmpty() ? "-" : String.format(Locale.ROOT, "%,d", s.bytesWritten());
        String records = s.rounds().isEmpty() ? "-" : String.format(Locale.ROOT, "%,d", s.messagesRead());
        String recordsAfter = s.rounds().isEmpty() ? "-" : String.format(Locale.ROOT, "%,d", s.messagesWritten());
        if (d != null) {
            double min = minRatio(t);
            String cleans = d.wouldClean(min) ? (d.needCompactionNow() && !(d.dirtyRatio() > min) ? "yes (max lag)" : "yes")
                    : d.cleanableBytes() == 0 ? "no: nothing dirty" : "no: ratio <= " + trim(min);
            return new String[] {t.name(), Integer.toString(s.segmentsIn()),
                String.format(Locale.ROOT, "%,d", d.logBytes()),
                "[" + d.firstDirtyOffset() + ", " + d.firstUncleanableOffset() + ")",
                String.format(Locale.ROOT, "%,d", d.cleanableBytes()),
                String.format(Locale.ROOT, "%.3f", d.dirtyRatio()), cleans, Integer.toString(s.rounds().size()), after, records,
                recordsAfter};
        }
        return new String[] {t.name(), Integer.toString(s.segmentsIn()), in, Integer.toString(s.rounds().size()),
            Integer.toString(s.segmentsOut()), after, records, recordsAfter, r.partitionDir().map(Path::toString).orElse("-")};
    }

    private static String trim(double d) {
        String s = String.format(Locale.ROOT, "%.4f", d);
        return s.replaceAll("0+$", "").replaceAll("\\.$", ".0");
    }

    /** Kafka's {@code LogCleaner.recordStats} text for one pass. */
    static void kafkaStats(PrintWriter w, String name, CompactStats.Round r) {
        double secs = (r.mapNanos() + r.cleanNanos()) / 1e9;
        double indexSecs = r.mapNanos() / 1e9;
        double mb = 1024 * 1024;
        w.printf(Locale.ROOT, "\tLog cleaner thread 0 cleaned log %s (dirty section = [%d, %d])%n", name, r.firstDirtyOffset(), r.endOffset());
        w.printf(Locale.ROOT, "\t%,.1f MB of log processed in %,.1f seconds (%,.1f MB/sec).%n", r.bytesRead() / mb, secs,
                r.bytesRead() / secs / mb);
        w.printf(Locale.ROOT, "\tIndexed %,.1f MB in %.1f seconds (%,.1f Mb/sec, %.1f%% of total time)%n", r.mapBytesRead() / mb,
                indexSecs, r.mapBytesRead() / mb / indexSecs, 100 * indexSecs / secs);
        w.printf(Locale.ROOT, "\tBuffer utilization: %.1f%%%n", 100 * r.bufferUtilization());
        w.printf(Locale.ROOT, "\tCleaned %,.1f MB in %.1f seconds (%,.1f Mb/sec, %.1f%% of total time)%n", r.bytesRead() / mb,
                secs - indexSecs, r.bytesRead() / mb / (secs - indexSecs), 100 * (secs - indexSecs) / secs);
        w.printf(Locale.ROOT, "\tStart size: %,.1f MB (%,d messages)%n", r.bytesRead() / mb, r.messagesRead());
        w.printf(Locale.ROOT, "\tEnd size: %,.1f MB (%,d messages)%n", r.bytesWritten() / mb, r.messagesWritten());
        w.printf(Locale.ROOT, "\t%.1f%% size reduction (%.1f%% fewer messages)%n",
                100.0 * (1.0 - (double) r.bytesWritten() / r.bytesRead()),
                100.0 * (1.0 - (double) r.messagesWritten() / r.messagesRead()));
    }

    private void json(StringWriter w, Target t, CleanerDecision d, CompactResult r, CompactSettings settings, long nanos)
            throws IOException {
        CompactStats s = r.stats();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("partition", t.name());
            g.writeStringField("dir", t.dir().path());
            g.writeStringField("mode", dryRun ? "dry-run" : snapshot ? "snapshot" : "compact");
            if (r.partitionDir().isPresent()) {
                g.writeStringField("out", r.partitionDir().get().toString());
            }
            g.writeObjectFieldStart("settings");
            g.writeNumberField("now", settings.now());
            g.writeNumberField("deleteRetentionMs", settings.deleteRetentionMs());
            g.writeNumberField("minCompactionLagMs", settings.minCompactionLagMs());
            g.writeNumberField("segmentBytes", settings.segmentBytes());
            g.writeNumberField("segmentIndexBytes", settings.maxIndexBytes());
            g.writeNumberField("indexIntervalBytes", settings.indexIntervalBytes());
            g.writeNumberField("dedupeBufferSize", settings.dedupeBufferBytes());
            g.writeNumberField("ioBufferSize", settings.ioBufferBytes());
            g.writeNumberField("threads", settings.cleanerThreads());
            g.writeBooleanField("kafkaRounds", settings.kafkaRounds());
            g.writeEndObject();
            if (d != null) {
                g.writeObjectFieldStart("decision");
                g.writeNumberField("logStartOffset", d.logStartOffset());
                g.writeNumberField("logEndOffset", d.logEndOffset());
                g.writeNumberField("highWatermark", d.highWatermark());
                g.writeNumberField("lastStableOffset", d.lastStableOffset());
                g.writeNumberField("checkpoint", d.checkpoint());
                g.writeBooleanField("checkpointReset", d.checkpointReset());
                g.writeNumberField("firstDirtyOffset", d.firstDirtyOffset());
                g.writeNumberField("firstUncleanableOffset", d.firstUncleanableOffset());
                g.writeNumberField("cleanBytes", d.cleanBytes());
                g.writeNumberField("cleanableBytes", d.cleanableBytes());
                g.writeNumberField("dirtyRatio", d.dirtyRatio());
                g.writeNumberField("minCleanableDirtyRatio", minRatio(t));
                g.writeNumberField("maxCompactionDelayMs", d.maxCompactionDelayMs());
                g.writeBooleanField("wouldClean", d.wouldClean(minRatio(t)));
                g.writeEndObject();
            }
            g.writeArrayFieldStart("passes");
            for (CompactStats.Round p : s.rounds()) {
                g.writeStartObject();
                g.writeNumberField("firstDirtyOffset", p.firstDirtyOffset());
                g.writeNumberField("firstUncleanableOffset", p.firstUncleanableOffset());
                g.writeNumberField("endOffset", p.endOffset());
                g.writeNumberField("bytesRead", p.bytesRead());
                g.writeNumberField("bytesWritten", p.bytesWritten());
                g.writeNumberField("messagesRead", p.messagesRead());
                g.writeNumberField("messagesWritten", p.messagesWritten());
                g.writeNumberField("mapBytesRead", p.mapBytesRead());
                g.writeNumberField("mapMessagesRead", p.mapMessagesRead());
                g.writeNumberField("invalidMessagesRead", p.invalidMessagesRead());
                g.writeNumberField("mapSlots", p.mapSlots());
                g.writeNumberField("mapEntries", p.mapEntries());
                g.writeNumberField("bufferUtilization", p.bufferUtilization());
                g.writeNumberField("segmentsCleaned", p.segmentsCleaned());
                g.writeNumberField("segmentsWritten", p.segmentsWritten());
                g.writeNumberField("batchesCopied", p.batchesCopied());
                g.writeNumberField("batchesRebuilt", p.batchesRebuilt());
                g.writeNumberField("emptyBatchesWritten", p.emptyBatchesWritten());
                g.writeNumberField("batchesDropped", p.batchesDropped());
                g.writeNumberField("mapMs", p.mapNanos() / 1_000_000.0);
                g.writeNumberField("cleanMs", p.cleanNanos() / 1_000_000.0);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("segmentsIn", s.segmentsIn());
            g.writeNumberField("segmentsOut", s.segmentsOut());
            g.writeNumberField("bytesRead", s.bytesRead());
            g.writeNumberField("bytesWritten", s.bytesWritten());
            g.writeNumberField("messagesRead", s.messagesRead());
            g.writeNumberField("messagesWritten", s.messagesWritten());
            g.writeNumberField("cleanerCheckpoint", s.cleanerCheckpoint());
            g.writeNumberField("activeProducers", s.activeProducers());
            g.writeNumberField("ms", nanos / 1_000_000.0);
            g.writeArrayFieldStart("inputDamage");
            for (io.segscope.format.error.Problem p : r.inputDamage()) {
                g.writeStartObject();
                g.writeStringField("kind", p.kind().kind());
                g.writeStringField("file", p.file());
                g.writeNumberField("position", p.position());
                g.writeStringField("message", p.message());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        w.write("\n");
    }

    /** Totals over every partition. */
    private static final class CompactStatsTotals {
        long bytesRead;
        long bytesWritten;
        long messagesRead;
        long messagesWritten;
        long passes;
        long nanos;
        int partitions;

        void add(Done d) {
            partitions++;
            bytesRead += d.stats.bytesRead();
            bytesWritten += d.stats.bytesWritten();
            messagesRead += d.stats.messagesRead();
            messagesWritten += d.stats.messagesWritten();
            passes += d.stats.rounds().size();
            nanos += d.nanos;
        }

        String text() {
            return String.format(Locale.ROOT, "%d partition%s, %d pass%s, %,d -> %,d bytes (%.1f%% smaller), %,d -> %,d records, %.2f s%n",
                    partitions, partitions == 1 ? "" : "s", passes, passes == 1 ? "" : "es", bytesRead, bytesWritten, bytesRead == 0 ? 0.0 : 100.0 * (1 - (double) bytesWritten / bytesRead),
                    messagesRead, messagesWritten, nanos / 1e9);
        }
    }

    /** Peak memory of this process: the heap's (every heap pool's peak) and the resident set's (Linux). */
    static String memory() {
        long heap = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                heap += p.getPeakUsage().getUsed();
            }
        }
        String rss = "";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    rss = ", peak RSS " + line.substring(6).trim().replace(" kB", "") + " KiB";
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // not Linux
        }
        return String.format(Locale.ROOT, "peak heap %,d KiB%s%n", heap / 1024, rss);
    }
}
