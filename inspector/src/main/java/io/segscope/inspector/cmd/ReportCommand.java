package io.segscope.inspector.cmd;

import io.segscope.format.compat.Compatibility;
import io.segscope.format.compat.FormatInventory;
import io.segscope.format.compat.TimeBuckets;
import io.segscope.format.error.FormatException;
import io.segscope.format.inventory.Divergence;
import io.segscope.format.inventory.PartitionReplicas;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.inventory.TransactionCoordinatorState;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.Segment;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.state.EpochEntry;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import io.segscope.format.verify.Verifier;
import io.segscope.format.verify.VerifyStats;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.input.PathArgument;
import io.segscope.inspector.report.ReportFile;
import io.segscope.inspector.report.ReportModel;
import io.segscope.inspector.report.ReportPage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/** {@code segscope report}: one self-contained HTML page of a log dir, built from the engines' models. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Write one self-contained HTML page about these logs.",
            "An overview (brokers, topics, partitions, bytes, time span, shutdowns, verify's",
            "findings, the oldest Kafka release that reads them), a partition map (health,",
            "size, dirty ratio; segments, damaged ranges, leader epochs and replicas of each",
            "partition), consumer groups (state, lag, commit history), open and hanging",
            "transactions, compaction (now and after a clean), and formats (magic, codecs,",
            "record versions). No external resource: inline SVG drawn by segscope and",
            "a little script. Big inputs are capped; the page says what it left out.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the page is written (whatever damage it shows)", "2:usage error (including --out inside an input)",
            "3:no page (missing input, unwritable output), or a page of partly unreadable inputs"})
public final class ReportCommand implements Callable<Integer> {
    /** Caps that keep the page bounded (the page says what each left out). */
    static final int MAX_CELLS = 5_000;
    static final int MAX_DETAILS = 400;
    static final int MAX_GROUPS = 5_000;
    static final int MAX_DRAWN_GROUPS = 300;
    static final int MAX_POINTS = 400;
    static final int MAX_FINDINGS = 500;
    static final int MAX_DRY_RUNS = 200;
    static final int MAX_TRANSACTIONS = 2_000;
    static final int MAX_TIME_BUCKETS = 60;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dirs (one or several brokers'), partition dirs, or archives.")
    List<Path> paths;

    @Option(names = "--out", required = true, paramLabel = "FILE.html", description = "The page to write (a temporary file renamed into place).")
    Path out;

    @Option(names = "--title", paramLabel = "TEXT", description = "The page's title (default: segscope report).")
    String title;

    @Option(names = "--as-of-time", paramLabel = "TIME", converter = TimeConverter.class,
            description = "The report as of this time (ISO-8601 or epoch ms): each partition cut before its first batch later than"
                    + " then (bytes, log end, open transactions, formats), groups, commit histories, lag, transaction ages and the"
                    + " cleaner's clock; the page says what it cannot cut (verify's findings).")
    Long asOfTime;

    @Option(names = "--stale-after", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "1h",
            description = "A group whose last commit is older than this before the end of the data is marked stopped (default 1h).")
    long staleAfterMs;

    @Option(names = "--max-transaction-timeout", paramLabel = "MINUTES", defaultValue = "15",
            description = "Transactions idle longer than this can hang, as kafka-transactions.sh find-hanging (default 15).")
    int maxTimeoutMinutes;

    @CommandLine.Mixin
    OptionValues.ReadOptions read;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (maxTimeoutMinutes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-transaction-timeout must be 0 or more, not " + maxTimeoutMinutes);
        }
        if (staleAfterMs < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--stale-after must be 0 or more");
        }
        Path target = out.toAbsolutePath().normalize();
        for (Path p : paths) {
            if (p.toString().equals("-")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "report reads log dirs, partition dirs and archives, not standard input");
            }
            if (!PathArgument.exists(p)) {
                err.println("report: " + p + ": no such file or directory; no page written");
                return Segscope.EXIT_IO;
            }
            Path in = PathArgument.file(p).toAbsolutePath().normalize();
            Path real = in;
            try {
                real = in.toRealPath();
            } catch (IOException e) {
                // the path as given
            }
            Path outReal = realParent(target);
            if (target.startsWith(in) || outReal.startsWith(real)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " is inside the input " + p
                        + ": the report never writes into what it reads; choose a file elsewhere");
            }
        }
        String refusal = ReportFile.refusal(out);
        if (refusal != null) {
            err.println("report: " + refusal + "; no page written");
            return Segscope.EXIT_IO;
        }
        ReaderOptions options = read.readerOptions();
        ReportModel.Report model;
        boolean ioError;
        try (InventorySource source = InventorySource.open("report", paths, err)) {
            ioError = source.ioError();
            model = build(source, options, err);
        }
        String html = ReportPage.render(model);
        try {
            ReportFile.write(out, html);
        } catch (IOException e) {
            err.println("report: cannot write " + out + ": " + e.getMessage() + "; no page written");
            return Segscope.EXIT_IO;
        }
        err.println("report: " + out + " (" + html.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + " bytes)");
        return ioError ? Segscope.EXIT_IO : Segscope.EXIT_OK;
    }

    private static Path realParent(Path target) {
        Path parent = target.getParent();
        try {
            return parent == null ? target : parent.toRealPath().resolve(target.getFileName());
        } catch (IOException e) {
            return target;
        }
    }

    private ReportModel.Report build(InventorySource source, ReaderOptions options, PrintWriter err) throws IOException {
        List<String> left = new ArrayList<>();
        List<PartitionReplicas> parts = source.scan(false, options, t -> true);
        // the two passes over every batch run side by side: the formats (one copy of each partition,
        // then the inputs' SHA-256s) on a thread of their own, verify on this one; neither keeps a
        // segment mapped past reading it
        List<InventorySource.Dir> firstCopies = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (InventorySource.Dir d : source.dirs()) {
            if (seen.add(d.dir().topic() + "-" + d.dir().partition())) {
                firstCopies.add(d);
            }
        }
        // the formats over time: buckets of an hour, a day, a week or months over the data's span
        long spanFirst = Long.MAX_VALUE;
        long spanLast = -1;
        for (PartitionReplicas p : parts) {
            for (ReplicaState r : p.replicas()) {
                if (r.firstTimestamp() >= 0) {
                    spanFirst = Math.min(spanFirst, r.firstTimestamp());
                }
                spanLast = Math.max(spanLast, r.maxTimestamp());
            }
        }
        long replicasFirst = spanFirst;
        long replicasLast = asOfTime == null ? spanLast : Math.min(spanLast, asOfTime);
        long asOf = asOfTime == null ? Long.MAX_VALUE : asOfTime;
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "report-formats");
            t.setDaemon(true);
            return t;
        });
        Future<List<FormatInventory.Counts>> countsLater;
        Future<List<String[]>> shaLater;
        try {
            countsLater = pool.submit(() -> {
                try {
                    List<FormatInventory.Counts> out = new ArrayList<>();
                    // batches are counted by their largest timestamp: the span from the first batches' to the largest
                    long first = Long.MAX_VALUE;
                    for (InventorySource.Dir d : firstCopies) {
                        long t = FormatInventory.firstBatchMaxTimestamp(d.dir(), options);
                        if (t >= 0) {
                            first = Math.min(first, t);
                        }
                    }
                    if (first == Long.MAX_VALUE) {
                        first = replicasFirst;
                    }
                    TimeBuckets buckets = replicasLast >= 0 && first <= replicasLast
                            ? TimeBuckets.covering(first, replicasLast, MAX_TIME_BUCKETS) : null;
                    for (InventorySource.Dir d : firstCopies) {
                        out.add(FormatInventory.of(d.dir(), options, false, buckets, asOf));
                    }
                    return out;
                } finally {
                    io.segscope.format.record.Decompressor.releaseThread();
                }
            });
            shaLater = pool.submit(() -> {
                List<String[]> inputs = new ArrayList<>();
                for (Path p : paths) {
                    inputs.add(new String[] {p.toString(), sha256(PathArgument.file(p))});
                }
                return inputs;
            });
        } finally {
            pool.shutdown();
        }
        // verify: every finding, by partition dir
        List<Finding> findings = new ArrayList<>();
        Verifier verifier = new Verifier(options, findings::add);
        for (Path p : paths) {
            VerifyCommand.verifyPath(verifier, p, null);
        }
        VerifyStats vs = verifier.stats();
        Map<String, List<Finding>> byDir = new HashMap<>();
        for (Finding f : findings) {
            String file = f.file();
            int slash = file.lastIndexOf('/');
            byDir.computeIfAbsent(slash < 0 ? "" : file.substring(0, slash), k -> new ArrayList<>()).add(f);
        }
        List<FormatInventory.Counts> counts = await(countsLater);
        Map<String, FormatInventory.Counts> countsOf = new HashMap<>();
        for (FormatInventory.Counts c : counts) {
            countsOf.put(c.topic() + "-" + c.partition(), c);
        }
        Map<String, Compatibility.TopicFormats> topicFormats = Compatibility.byTopic(counts);
        List<Compatibility.Verdict> verdicts = Compatibility.judge(topicFormats);
        String oldest = Compatibility.oldestLoading(verdicts);

        // --as-of-time: each replica cut before its first batch later than then (log end, bytes, open transactions)
        Map<ReplicaState, ReplicaScanner.Cut> cuts = new java.util.IdentityHashMap<>();
        if (asOfTime != null) {
            for (PartitionReplicas p : parts) {
                for (ReplicaState r : p.replicas()) {
                    var dir = source.dirOf(r);
                    if (dir != null) {
                        cuts.put(r, timeSearch.cut(dir, asOfTime));
                    }
                }
            }
        }
        this.cuts = cuts;
        ReportModel.Overview overview = overview(source, parts, findings, vs, verdicts, oldest);
        long endOfData = -1;
        for (PartitionReplicas p : parts) {
            for (ReplicaState r : p.replicas()) {
                endOfData = Math.max(endOfData, r.maxTimestamp());
            }
        }
        long now = asOfTime != null ? asOfTime : endOfData;

        // partition map
        List<ReportModel.Partition> partitions = new ArrayList<>();
        int detailed = 0;
        for (PartitionReplicas p : parts) {
            if (partitions.size() >= MAX_CELLS) {
                break;
            }
            boolean detail = detailed < MAX_DETAILS;
            partitions.add(partition(source, p, byDir, detail));
            if (detail) {
                detailed++;
            }
        }
        int partitionsLeftOut = parts.size() - partitions.size();
        if (partitionsLeftOut > 0) {
            left.add("partition map: the first " + MAX_CELLS + " partitions of " + parts.size() + " are drawn");
        }
        if (detailed < partitions.size()) {
            left.add("partition details: the segments and replicas of the first " + MAX_DETAILS + " partitions only");
        }
        Map<String, ReplicaState> leaders = new HashMap<>();
        for (PartitionReplicas p : parts) {
            leaders.put(p.topic() + "-" + p.partition(), p.leader());
        }
        ReportFigures figures = new ReportFigures(paths, asOfTime, staleAfterMs, maxTimeoutMinutes);
        ReportModel.Groups groups = figures.groups(leaders, options, err, left);
        List<ReportModel.Transaction> txns = new ArrayList<>();
        TransactionCoordinatorState coord = source.transactionState(options);
        long txnEnd = asOfTime != null ? asOfTime : TransactionsCommand.endOfData(parts, coord);
        figures.transactions(parts, coord, txnEnd, r -> cuts.containsKey(r) ? cuts.get(r).openTransactions() : r.openTransactions(), txns, left);
        List<ReportModel.Compaction> compaction = figures.compaction(parts, countsOf, source.metadata(), now, left);
        ReportModel.Formats formats = ReportFigures.formats(topicFormats, counts);
        if (asOfTime != null) {
            left.add("--as-of-time cuts the whole report at each partition's first batch later than then: bytes, log end (Kafka's"
                    + " search by timestamp), the open transactions (replayed from the log start), the formats and the compatibility"
                    + " verdict; and the groups, their commit histories and lag, the transactions' ages and the cleaner's clock;"
                    + " verify's findings are those of the files as they are (they are about the files, not a time), and so are the"
                    + " compaction dry runs and the partitions' log start, high watermark and last stable offset (checkpoints)");
        }
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        StringBuilder cmd = new StringBuilder("segscope");
        for (String a : args) {
            cmd.append(' ').append(a.isEmpty() || a.matches(".*[\\s'\"\\\\$`!*?&;|<>(){}].*") ? "'" + a.replace("'", "'\\''") + "'" : a);
        }
        List<String[]> inputs = await(shaLater);
        String[] version = spec.root().version();
        ReportModel.Footer footer = new ReportModel.Footer(version.length > 0 ? version[0] : "segscope", cmd.toString(), inputs, 0);
        return new ReportModel.Report(title == null ? "segscope report" : title, asOfTime == null ? -1 : asOfTime, overview,
                partitions, partitionsLeftOut, groups, txns, coord.known(), txnEnd, maxTimeoutMinutes, compaction, formats, footer, left);
    }

    /** The result of the other thread's work; its failure as this thread's. */
    private static <T> T await(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private ReportModel.Overview overview(InventorySource source, List<PartitionReplicas> parts, List<Finding> findings,
                                          VerifyStats vs, List<Compatibility.Verdict> verdicts, String oldest) {
        Set<Integer> brokers = new TreeSet<>();
        Set<String> logDirs = new TreeSet<>();
        Set<String> topics = new TreeSet<>();
        long bytes = 0;
        long bytesAsOf = asOfTime == null ? -1 : 0;
        long first = Long.MAX_VALUE;
        long last = -1;
        int replicas = 0;
        Map<String, Boolean> shutdown = new TreeMap<>();
        for (PartitionReplicas p : parts) {
            topics.add(p.topic());
            for (ReplicaState r : p.replicas()) {
                replicas++;
                r.brokerId().ifPresent(brokers::add);
                logDirs.add(r.logDir());
                bytes += r.bytes();
                if (bytesAsOf >= 0) {
                    ReplicaScanner.Cut c = cuts.get(r);
                    bytesAsOf += c == null ? r.bytes() : c.bytes();
                }
                if (r.firstTimestamp() >= 0) {
                    first = Math.min(first, r.firstTimestamp());
                }
                last = Math.max(last, r.maxTimestamp());
                shutdown.putIfAbsent(r.logDir(), r.cleanShutdown());
            }
        }
        int clean = 0;
        int unclean = 0;
        int unknown = 0;
        for (Boolean b : shutdown.values()) {
            if (b == null) {
                unknown++;
            } else if (b) {
                clean++;
            } else {
                unclean++;
            }
        }
        long errors = 0;
        long warnings = 0;
        long crash = 0;
        long infos = 0;
        List<ReportModel.Finding> shown = new ArrayList<>();
        // errors first, then warnings, then the rest: the cap keeps the worst
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Comparator.comparingInt((Finding f) -> -f.severity().ordinal()));
        for (Finding f : sorted) {
            boolean artefact = f.crashArtefact();
            if (artefact) {
                crash++;
            } else if (f.severity() == Severity.ERROR) {
                errors++;
            } else if (f.severity() == Severity.WARNING) {
                warnings++;
            } else {
                infos++;
            }
            if (shown.size() < MAX_FINDINGS) {
                shown.add(new ReportModel.Finding(f.file(), f.position(), f.severity().label(), f.kind(), f.message(), artefact));
            }
        }
        List<ReportModel.Release> releases = new ArrayList<>();
        for (Compatibility.Verdict v : verdicts) {
            String reason = !v.blockers().isEmpty() ? v.blockers().get(0) : !v.losses().isEmpty() ? "skips: " + v.losses().get(0)
                    : !v.notes().isEmpty() ? v.notes().get(0) : "";
            releases.add(new ReportModel.Release(v.line(), v.release(), v.loads(), reason));
        }
        List<String> unreadable = new ArrayList<>();
        if (asOfTime != null && last > asOfTime) {
            last = asOfTime;
        }
        return new ReportModel.Overview(List.copyOf(brokers), logDirs.size(), topics.size(), parts.size(), replicas, bytes, bytesAsOf,
                first == Long.MAX_VALUE ? -1 : first, last, clean, unclean, unknown, errors, warnings, crash, infos, vs.files(),
                vs.batches(), vs.records(), shown, findings.size() - shown.size(), oldest, releases, unreadable);
    }

    private ReportModel.Partition partition(InventorySource source, PartitionReplicas p, Map<String, List<Finding>> byDir, boolean detail) {
        List<ReportModel.Replica> replicas = new ArrayList<>();
        List<ReportModel.Damage> damage = new ArrayList<>();
        String health = "ok";
        for (int i = 0; i < p.replicas().size(); i++) {
            ReplicaState r = p.replicas().get(i);
            Divergence d = p.standing().get(i);
            String standing = p.replicas().size() == 1 ? "only" : d.kind();
            if (Divergence.DIVERGED.equals(standing)) {
                health = worse(health, "diverged");
            }
            if (!r.problems().isEmpty()) {
                health = worse(health, "damaged");
            }
            List<ReportModel.Segment> segments = new ArrayList<>();
            var dir = source.dirOf(r);
            if (dir != null && detail) {
                List<Segment> segs = dir.segments().segments();
                for (int k = 0; k < segs.size(); k++) {
                    Segment s = segs.get(k);
                    long end = k + 1 < segs.size() ? segs.get(k + 1).baseOffset() : Math.max(r.logEndOffset(), s.baseOffset());
                    FileEntry log = s.log().orElse(null);
                    segments.add(new ReportModel.Segment(s.baseOffset(), end, log == null ? 0 : log.size(),
                            log == null ? "" : log.name()));
                }
            }
            List<long[]> epochs = new ArrayList<>();
            for (EpochEntry e : r.epochCheckpoint().isEmpty() ? r.epochBatches() : r.epochCheckpoint()) {
                epochs.add(new long[] {e.epoch(), e.startOffset()});
            }
            List<String> notes = new ArrayList<>(r.notes());
            for (FormatException e : r.problems()) {
                notes.add(e.getMessage());
            }
            long asOfEnd = -1;
            if (asOfTime != null && dir != null && detail) {
                // the first offset written after the cut: the log end as of then (timestamps as Kafka searches them)
                long[] found = asOfTime == Long.MAX_VALUE ? null : timeSearch.searchTimestamp(dir, asOfTime + 1, r.logStartOffset());
                asOfEnd = found == null ? r.logEndOffset() : Math.min(found[0], r.logEndOffset());
            }
            ReplicaScanner.Cut cut = cuts.get(r);
            replicas.add(new ReportModel.Replica(PartitionsCommand.where(r), r.brokerId().orElse(-1), r.logStartOffset(),
                    r.highWatermark().orElse(-1), r.lastStableOffset(), r.logEndOffset(), asOfEnd, cut == null ? -1 : cut.bytes(), standing,
                    detail ? segments : List.of(), detail ? epochs : List.of(), detail ? notes : List.of()));
            for (Finding f : byDir.getOrDefault(r.dir(), List.of())) {
                boolean artefact = f.crashArtefact();
                String sev = f.severity().label();
                health = worse(health, f.severity() == Severity.ERROR ? "damaged"
                        : f.severity() == Severity.WARNING && !artefact ? "warning" : "info");
                if (detail && (f.hasSkippedBytes() || f.hasLostOffsets() || f.severity() != Severity.INFO) && damage.size() < 200) {
                    String name = f.file().substring(f.file().lastIndexOf('/') + 1);
                    long base = f.baseOffset();
                    try {
                        base = Long.parseLong(name.substring(0, Math.min(20, name.indexOf('.') < 0 ? name.length() : name.indexOf('.'))));
                    } catch (NumberFormatException e) {
                        // a side file: the finding's own base offset
                    }
                    damage.add(new ReportModel.Damage(f.file(), base, f.hasSkippedBytes() ? f.skippedFrom() : f.position(),
                            f.hasSkippedBytes() ? f.skippedTo() : -1, f.hasLostOffsets() ? f.lostFrom() : -1,
                            f.hasLostOffsets() ? f.lostTo() : -1, sev, f.kind(), f.message()));
                }
            }
        }
        ReplicaState leader = p.leader();
        ReplicaScanner.Cut leaderCut = cuts.get(leader);
        return new ReportModel.Partition(p.topic(), p.partition(), health, leaderCut != null ? leaderCut.bytes() : leader.bytes(),
                leader.dirtyRatio().isPresent() ? leader.dirtyRatio().getAsDouble() : -1, replicas, damage);
    }

    /** With --as-of-time, each replica's cut (by identity); empty otherwise. */
    private Map<ReplicaState, ReplicaScanner.Cut> cuts = Map.of();

    /** Kafka's search by timestamp, for the log end as of --as-of-time. */
    private final io.segscope.format.inventory.ReplicaScanner timeSearch =
            new io.segscope.format.inventory.ReplicaScanner(io.segscope.format.record.ReaderOptions.defaults(), false);

    private static final List<String> HEALTH = List.of("ok", "info", "warning", "damaged", "diverged");

    private static String worse(String a, String b) {
        return HEALTH.indexOf(b) > HEALTH.indexOf(a) ? b : a;
    }

    /** A file's SHA-256, or of a directory every regular file under it (sorted relative path, NUL, content). */
    static String sha256(Path p) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            if (Files.isDirectory(p)) {
                List<Path> files;
                try (Stream<Path> s = Files.walk(p)) {
                    files = s.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path f : files) {
                    md.update(p.relativize(f).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    md.update((byte) 0);
                    digest(md, f);
                }
            } else {
                digest(md, p);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException | java.io.UncheckedIOException e) {
            return "unreadable: " + e.getMessage();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void digest(MessageDigest md, Path f) throws IOException {
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(f)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
    }
}
