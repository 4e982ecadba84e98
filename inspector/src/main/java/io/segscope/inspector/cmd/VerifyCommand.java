package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.StreamEntry;
import io.segscope.format.salvage.SalvageOutput;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.KindsTable;
import io.segscope.format.verify.Severity;
import io.segscope.format.verify.Verifier;
import io.segscope.format.verify.VerifyStats;
import io.segscope.inspector.Segscope;
import io.segscope.format.error.FormatException;
import io.segscope.inspector.input.ArchiveTree;
import io.segscope.inspector.input.PathArgument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code segscope verify}: checks segments, indexes and side files as Kafka's tools and recovery do, and more. */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Check segments, indexes and side files for damage, as Kafka's recovery would.",
            "PATH is a .log or side file, a partition dir, a broker log dir, or an archive",
            "of one (.tar, .tar.gz/.tgz, .tar.bz2, .tar.zst, .zip, read in place). Checks every batch (framing, CRC, records, offsets),",
            "offset/time/transaction index entries against the batches, producer",
            "snapshots, checkpoints, the leader-epoch checkpoint against the batches'",
            "epochs, and leftovers (orphan indexes, .tmp, .cleaned/.swap). After damage it",
            "resynchronises on the next good batch and reports the bytes skipped and the",
            "offsets lost, telling a torn tail (what Kafka's recovery truncates) from",
            "damage in the middle of a segment (which recovery truncates too, losing the",
            "good batches after it and the partition's later segments).",
            "",
            "Output: one line per finding, `file position severity kind: message`",
            "(position -1: the whole file); or with --format jsonl one object per finding:",
            "file, position, kind, severity, baseOffset (when known), message, and for",
            "resyncs and torn tails skippedBytes [from, to) and lostOffsets [first, last]",
            "(last null when unknown). A summary (files, batches, records, findings) goes",
            "to stderr.",
            "",
            "Kinds of finding: listed after the exit codes."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:clean (no errors or warnings; infos allowed)", "1:findings (errors or warnings)",
            "2:usage error", "3:I/O error"})
public final class VerifyCommand implements Callable<Integer> {
    /** Puts the kinds table, made from the one list of kinds, after the exit codes of {@code verify --help}. */
    public static void describeKinds(picocli.CommandLine verify) {
        List<String> footer = new java.util.ArrayList<>();
        footer.add("%nKinds of finding (severity; files):");
        for (String line : KindsTable.helpLines(80)) {
            footer.add(line.replace("%", "%%"));
        }
        verify.getCommandSpec().usageMessage().footer(footer.toArray(String[]::new));
    }

    enum Format { text, jsonl }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Segment or side file, partition dir, log dir, or archive.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "text", description = "text (default): `file position severity kind: message`; jsonl.")
    Format format;

    @Option(names = "--min-severity", paramLabel = "LEVEL", defaultValue = "info",
            completionCandidates = OptionValues.SeverityCandidates.class,
            description = "Print findings at least this severe: info (default), warning or error. Also sets what counts for the exit code.")
    Severity min;

    @Option(names = "--salvage", paramLabel = "OUT_DIR",
            description = {"Also write a copy of each damaged partition (a finding of at least warning, or of --min-severity)",
                "that Kafka loads without truncating anything: every good batch kept byte for byte, damaged bytes left out,",
                "indexes, producer snapshot and leader-epoch checkpoint rebuilt, checkpoints made consistent; and",
                "OUT_DIR/" + SalvageOutput.REPORT + " listing every byte and offset range lost. OUT_DIR is built under a",
                "temporary name and renamed when complete; it must not exist (unless --force) nor be inside an input."})
    Path salvage;

    @Option(names = "--force", description = "With --salvage: replace an existing OUT_DIR once the new one is complete.")
    boolean force;

    @picocli.CommandLine.Mixin
    OptionValues.ReadOptions read;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        JsonGenerator json = format == Format.jsonl ? new JsonFactory().createGenerator(out) : null;
        if (json != null) {
            json.setRootValueSeparator(null);
        }
        long[] shown = new long[Severity.values().length];
        long[] unreadable = new long[1];
        Verifier verifier = new Verifier(read.readerOptions(), f -> {
            if (!f.severity().atLeast(min)) {
                return;
            }
            shown[f.severity().ordinal()]++;
            if (f.violation() == Violation.IO_ERROR) {
                unreadable[0]++;
            }
            if (json != null) {
                writeJson(json, f);
                out.print('\n');
            } else {
                out.print(f + "\n");
            }
        });
        if (force && salvage == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--force replaces the --salvage output: give --salvage OUT_DIR");
        }
        Salvage salvaging = null;
        if (salvage != null) {
            try {
                salvaging = new Salvage(SalvageOutput.open(salvage, force, paths.stream().filter(p -> !p.toString().equals("-"))
                        .map(PathArgument::file).toList()), read.readerOptions(), min);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                err.println("verify: " + salvage + " exists already" + (force && e.getReason() != null ? " and is not replaced: " + e.getReason()
                        : ": choose another --salvage OUT_DIR, remove it, or give --force"));
                return Segscope.EXIT_IO;
            } catch (IOException e) {
                err.println("verify: cannot create the salvage output " + salvage + ": " + e.getMessage());
                return Segscope.EXIT_IO;
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            verifier.onPartition(salvaging::noteDamage);
        }
        Progress progress = new Progress(err, Progress.stderrIsTerminal(), totalLogBytes(paths));
        verifier.progress((bytes, batches, records) -> progress.update(bytes, records));
        int exit = Segscope.EXIT_OK;
        try {
            verifier.as(read.as());
            if (salvaging != null) {
                for (Path p : paths) {
                    if (p.toString().equals("-") || (Files.isRegularFile(p) && !ArchiveTree.isArchive(p))) {
                        err.println("verify: --salvage copies partition dirs, not files named on their own: "
                                + (p.toString().equals("-") ? "standard input is" : p + " is") + " only verified"
                                + (p.toString().equals("-") || p.toAbsolutePath().getParent() == null ? ""
                                        : " (give its partition dir, " + p.toAbsolutePath().getParent() + ")"));
                    }
                }
            }
            for (Path p : paths) {
                if (p.toString().equals("-")) {
                    verifier.verify(StreamEntry.stdin());
                } else if (!PathArgument.exists(p)) {
                    err.println(p + ": no such file or directory");
                    exit = Segscope.EXIT_IO;
                } else if (!verifyPath(verifier, p, salvaging)) {
                    err.println(p + ": no Kafka segment, partition dir or log dir found there");
                    exit = Segscope.EXIT_IO;
                }
            }
            if (salvaging != null && !salvaging.finish(err)) {
                exit = Segscope.EXIT_IO;
            }
        } finally {
            progress.done();
            if (json != null) {
                json.flush();
            }
            out.flush();
            if (salvaging != null) {
                salvaging.close();
            }
        }
        VerifyStats s = verifier.stats();
        err.println("verify: " + s.files() + " files, " + s.batches() + " batches, " + s.records() + " records; "
                + s.findings(Severity.ERROR) + " errors, " + s.findings(Severity.WARNING) + " warnings, "
                + s.findings(Severity.INFO) + " infos");
        err.flush();
        if (exit != Segscope.EXIT_OK || unreadable[0] > 0) {
            return Segscope.EXIT_IO;
        }
        return shown[Severity.ERROR.ordinal()] + shown[Severity.WARNING.ordinal()] > 0 ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
    }

    /** Bytes of the .log files under the paths (archives count as their size), for the ETA. */
    private static long totalLogBytes(List<Path> paths) {
        long total = 0;
        for (Path p : paths) {
            try {
                if (Files.isDirectory(p)) {
                    try (Stream<Path> s = Files.walk(p)) {
                        total += s.filter(f -> f.getFileName().toString().endsWith(".log") && Files.isRegularFile(f))
                                .mapToLong(f -> f.toFile().length()).sum();
                    }
                } else if (Files.isRegularFile(PathArgument.file(p))) {
                    total += Files.size(PathArgument.file(p));
                }
            } catch (IOException | UncheckedIOException e) {
                // only the progress estimate needs it; the walk reports what cannot be read
            }
        }
        return total;
    }

    /**
     * Verifies one PATH. In an archive, entries that are not Kafka's are reported as ignored (info);
     * a compressed tar's partitions are verified in the order the archive holds them, so that it is
     * read in one forward pass; an archive cut short is an {@code io-error} finding naming where it
     * ends, after its complete entries are verified.
     */
    static boolean verifyPath(Verifier verifier, Path p, Salvage salvaging) {
        try (PathArgument arg = PathArgument.open(p)) {
            ArchiveTree tree = arg.tree();
            if (tree == null) {
                boolean found = verifier.verify(p);
                if (salvaging != null) {
                    salvaging.salvageNoted();
                }
                return found;
            }
            verifier.reportIgnored(true).readOrder(arg.archiveOrder());
            try {
                boolean found = verifier.verify(arg.entry());
                if (salvaging != null) {
                    salvaging.salvageNoted();
                }
                tree.truncation().ifPresent(t -> verifier.report(FormatException.at(Violation.ARCHIVE_TRUNCATED, t.file(), t.position())
                        .note(t.message()).build(), Severity.ERROR));
                return found || tree.truncation().isPresent();
            } finally {
                verifier.reportIgnored(false).readOrder(null);
            }
        }
    }

    private static void writeJson(JsonGenerator g, Finding f) {
        try {
            g.writeStartObject();
            g.writeStringField("file", f.file());
            g.writeNumberField("position", f.position());
            g.writeStringField("kind", f.kind());
            g.writeStringField("severity", f.severity().label());
            if (f.baseOffset() >= 0) {
                g.writeNumberField("baseOffset", f.baseOffset());
            }
            g.writeStringField("message", f.message());
            if (f.hasSkippedBytes()) {
                g.writeArrayFieldStart("skippedBytes");
                g.writeNumber(f.skippedFrom());
                g.writeNumber(f.skippedTo());
                g.writeEndArray();
            }
            if (f.hasLostOffsets()) {
                g.writeArrayFieldStart("lostOffsets");
                g.writeNumber(f.lostFrom());
                if (f.lostTo() >= 0) {
                    g.writeNumber(f.lostTo());
                } else {
                    g.writeNull();
                }
                g.writeEndArray();
            }
            if (f.crashArtefact()) {
                g.writeBooleanField("crashArtefact", true);
            }
            g.writeEndObject();
            g.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
