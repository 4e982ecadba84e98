package io.segscope.testdata.generator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.common.utils.internals.Exit;

/**
 * Runs Kafka's own {@code org.apache.kafka.tools.DumpLogSegments} in this JVM on every file of
 * a log dir it understands and writes its output to {@code dump/<partition-dir>/<file>.txt}
 * (stderr to {@code .err} when non-empty; {@code --verify-index-only} to {@code .verify.txt}).
 * The absolute run directory is replaced by nothing, so the first line reads
 * {@code Dumping logdir/<partition-dir>/<file>}.
 *
 * <p>The tool is looked up reflectively so that testdata compiles without kafka-tools; the
 * {@code generate-corpus} profile puts it on the class path.
 */
final class Dumper {
    private static final List<String> SUFFIXES = List.of(".log", ".index", ".timeindex", ".txnindex", ".snapshot", ".checkpoint");

    private final Path runDir;
    private final Method main;
    /** Topics whose records are dumped without {@code --print-data-log} (large payloads). */
    private final Set<String> noDataLog;

    Dumper(Path runDir) throws ReflectiveOperationException {
        this(runDir, Set.of());
    }

    Dumper(Path runDir, Set<String> noDataLog) throws ReflectiveOperationException {
        this.runDir = runDir.toAbsolutePath();
        this.noDataLog = noDataLog;
        this.main = Class.forName("org.apache.kafka.tools.DumpLogSegments").getMethod("main", String[].class);
        Exit.setExitProcedure((code, message) -> {
            throw new IllegalStateException("DumpLogSegments exited with " + code + ": " + message);
        });
    }

    /**
     * Flags for every file of one partition dir (the topic decides the decoder; a decoder implies
     * deep iteration, so {@code --deep-iteration} changes nothing next to one).
     */
    static List<String> flagsFor(String partitionDir) {
        List<String> f = new ArrayList<>(List.of("--deep-iteration"));
        if (partitionDir.startsWith("__consumer_offsets-")) {
            f.add("--offsets-decoder");
        } else if (partitionDir.startsWith("__transaction_state-")) {
            f.add("--transaction-log-decoder");
        } else if (partitionDir.startsWith("__share_group_state-")) {
            f.add("--share-group-state-decoder");
        } else if (partitionDir.startsWith("__cluster_metadata-") || partitionDir.isEmpty()) {
            f.add("--cluster-metadata-decoder");
        } else {
            f.add("--print-data-log");
        }
        return f;
    }

    /** Dumps every understood file below {@code logdir}; returns file name to flags used, for run.json. */
    Map<String, Object> dumpAll(Path logDir, Path dumpDir) throws IOException {
        Map<String, Object> done = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(logDir)) {
            files = s.filter(Files::isRegularFile).filter(Dumper::understood).sorted().collect(Collectors.toList());
        }
        for (Path file : files) {
            Path rel = logDir.relativize(file);
            String partitionDir = rel.getNameCount() > 1 ? rel.getName(0).toString() : "";
            List<String> flags = flagsFor(partitionDir);
            int dash = partitionDir.lastIndexOf('-');
            if (dash > 0 && noDataLog.contains(partitionDir.substring(0, dash))) {
                flags.remove("--print-data-log");
            }
            Path out = dumpDir.resolve(rel.toString() + ".txt");
            Files.createDirectories(out.getParent());
            run(file, flags, out, dumpDir.resolve(rel.toString() + ".err"));
            String name = file.getFileName().toString();
            if (name.endsWith(".index") || name.endsWith(".timeindex")) {
                List<String> verify = new ArrayList<>(flags);
                verify.add("--verify-index-only");
                run(file, verify, dumpDir.resolve(rel.toString() + ".verify.txt"),
                        dumpDir.resolve(rel.toString() + ".verify.err"));
            }
            done.put(rel.toString(), String.join(" ", flags));
        }
        return done;
    }

    /** Whether DumpLogSegments reads this kind of file (segments, indexes, snapshots, checkpoints). */
    static boolean understood(Path p) {
        String n = p.getFileName().toString();
        for (String s : SUFFIXES) {
            if (n.endsWith(s)) {
                return true;
            }
        }
        return false;
    }

    private void run(Path file, List<String> flags, Path out, Path err) throws IOException {
        List<String> args = new ArrayList<>(flags);
        args.add("--files");
        args.add(file.toAbsolutePath().toString());
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        try (PrintStream o = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            try {
                main.invoke(null, (Object) args.toArray(new String[0]));
            } catch (InvocationTargetException ex) {
                printKafkaFrames(ex.getCause(), e);
            } catch (IllegalAccessException ex) {
                throw new IllegalStateException(ex);
            } finally {
                System.setOut(oldOut);
                System.setErr(oldErr);
            }
        }
        Files.writeString(out, relativize(outBytes.toString(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        String errText = relativize(errBytes.toString(StandardCharsets.UTF_8));
        if (!errText.isEmpty()) {
            Files.writeString(err, errText, StandardCharsets.UTF_8);
        }
    }

    /** The exception and its Kafka frames only: the generator's own frames would change with every edit. */
    private static void printKafkaFrames(Throwable t, PrintStream e) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            e.println((c == t ? "" : "Caused by: ") + c);
            for (StackTraceElement f : c.getStackTrace()) {
                if (!f.getClassName().startsWith("org.apache.kafka.")) {
                    break;
                }
                e.println("\tat " + f);
            }
        }
    }

    private String relativize(String text) {
        return text.replace(runDir.toString() + "/", "");
    }
}
