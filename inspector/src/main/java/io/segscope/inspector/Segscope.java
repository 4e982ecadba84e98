package io.segscope.inspector;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.record.Tail;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The {@code segscope} command line. */
@Command(name = "segscope", mixinStandardHelpOptions = true, version = "segscope 0.1.0",
        description = "Reads Apache Kafka's on-disk data offline.",
        subcommands = {io.segscope.inspector.cmd.DumpCommand.class, io.segscope.inspector.cmd.LocateCommand.class,
            Segscope.Summary.class, io.segscope.inspector.cmd.CompletionCommand.class},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:success", "1:findings", "2:usage error", "3:I/O error"})
public final class Segscope implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FINDINGS = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_IO = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(newCommandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true)).execute(args));
    }

    public static CommandLine newCommandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Segscope());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_IO);
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            cmd.getErr().println(ex instanceof FormatException ? ex.getMessage() : "segscope: " + ex);
            cmd.getErr().flush();
            return ex instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_IO;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println(ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            c.getErr().flush();
            return EXIT_USAGE;
        });
        return cl;
    }

    /** One line per segment: batches, records, offsets, magics, codecs, tail. */
    @Command(name = "summary", mixinStandardHelpOptions = true,
            description = "Summarise the .log segments under PATH (a segment, a partition dir or a log dir).")
    static final class Summary implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "PATH")
        List<Path> paths;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            int exit = EXIT_OK;
            for (Path root : paths) {
                List<Path> logs;
                if (Files.isDirectory(root)) {
                    try (Stream<Path> s = Files.walk(root)) {
                        logs = s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().collect(Collectors.toList());
                    }
                } else {
                    logs = List.of(root);
                }
                for (Path log : logs) {
                    String name = root.equals(log) ? log.toString() : root.relativize(log).toString();
                    try (ByteSource src = MappedSource.open(log, name); BatchReader reader = new BatchReader(src)) {
                        long batches = 0;
                        long records = 0;
                        long first = -1;
                        long last = -1;
                        long invalid = 0;
                        int[] magics = new int[3];
                        StringBuilder codecs = new StringBuilder();
                        while (reader.next()) {
                            Batch b = reader.batch();
                            if (first < 0) {
                                first = b.baseOffset();
                            }
                            last = b.lastOffset();
                            batches++;
                            magics[b.magic()]++;
                            invalid += b.isValid() ? 0 : 1;
                            String codec = b.compression() == null ? "codec" + b.attributes() : b.compression().kafkaName;
                            if (codecs.indexOf(codec) < 0) {
                                codecs.append(codecs.length() == 0 ? "" : ",").append(codec);
                            }
                            RecordIterator it = b.records();
                            while (it.next()) {
                                records++;
                            }
                        }
                        Tail tail = reader.tail();
                        out.printf("%s  batches=%d records=%d offsets=%s magic=%d/%d/%d codecs=%s crcErrors=%d tail=%s%n",
                                name, batches, records, batches == 0 ? "-" : first + ".." + last, magics[0], magics[1],
                                magics[2], codecs.length() == 0 ? "-" : codecs, invalid,
                                tail.isClean() ? "clean" : tail.kind() + "(" + tail.tailBytes() + " bytes at " + tail.validBytes() + ")");
                        if (invalid > 0 || !tail.isClean()) {
                            exit = EXIT_FINDINGS;
                        }
                    } catch (FormatException e) {
                        spec.commandLine().getErr().println(e.getMessage());
                        exit = EXIT_FINDINGS;
                    }
                }
            }
            return exit;
        }
    }
}
