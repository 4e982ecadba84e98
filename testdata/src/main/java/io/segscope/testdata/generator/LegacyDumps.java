package io.segscope.testdata.generator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs Kafka 4.4.0's {@code org.apache.kafka.tools.DumpLogSegments} over every segment and index
 * file of a log dir and writes one text file per input, mirroring the log dir tree
 * ({@code dump/<partition>/<file>.txt}).
 *
 * <p>One child JVM per partition dir is given all of that partition's files; its output is split
 * at the {@code Dumping <path>} line that opens each file's section. Absolute paths in the output
 * are rewritten relative to the repository root so that committed dumps do not depend on where
 * they were made. Files and decoder flags are {@link Dumper}'s (docs/format.md section 2.9):
 * {@code --offsets-decoder} for {@code __consumer_offsets}, {@code --transaction-log-decoder} for
 * {@code __transaction_state}, {@code --print-data-log} for everything else, with
 * {@code --deep-iteration}.
 */
final class LegacyDumps {
    private LegacyDumps() {
    }

    /** Dumps every partition dir below {@code logDir} into {@code dumpDir}. */
    static void dumpTree(Path logDir, Path dumpDir, Path repoRoot, String classpath) throws IOException, InterruptedException {
        List<Path> partitions;
        try (Stream<Path> s = Files.list(logDir)) {
            partitions = s.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
        for (Path partition : partitions) {
            dumpPartition(partition, dumpDir.resolve(partition.getFileName().toString()), repoRoot, classpath);
        }
    }

    static void dumpPartition(Path partitionDir, Path outDir, Path repoRoot, String classpath)
            throws IOException, InterruptedException {
        List<Path> files;
        try (Stream<Path> s = Files.list(partitionDir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(Dumper::understood)
                    .sorted()
                    .collect(Collectors.toList());
        }
        if (files.isEmpty()) {
            return;
        }
        String topic = partitionDir.getFileName().toString();
        List<String> cmd = new ArrayList<>(List.of(ChildJvms.javaBin(), "-Xmx512m", "-cp", classpath,
                "org.apache.kafka.tools.DumpLogSegments"));
        cmd.addAll(Dumper.flagsFor(topic));
        cmd.add("--files");
        cmd.add(files.stream().map(f -> f.toAbsolutePath().toString()).collect(Collectors.joining(",")));

        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[][] outErr = drain(p);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroy();
            throw new IOException("DumpLogSegments did not finish for " + partitionDir);
        }
        String stdout = new String(outErr[0], StandardCharsets.UTF_8);
        String stderr = new String(outErr[1], StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException("DumpLogSegments exited " + p.exitValue() + " for " + partitionDir + ":\n" + stderr);
        }

        Map<Path, StringBuilder> sections = new LinkedHashMap<>();
        StringBuilder current = null;
        for (String line : stdout.split("\n", -1)) {
            if (line.startsWith("Dumping ")) {
                Path f = Path.of(line.substring("Dumping ".length()).trim());
                current = sections.computeIfAbsent(f.toAbsolutePath().normalize(), k -> new StringBuilder());
            }
            if (current == null) {
                continue;
            }
            current.append(line).append('\n');
        }
        Files.createDirectories(outDir);
        String absRoot = repoRoot.toAbsolutePath().normalize() + "/";
        for (Path f : files) {
            StringBuilder sb = sections.get(f.toAbsolutePath().normalize());
            if (sb == null) {
                throw new IOException("no DumpLogSegments section for " + f + "\nstderr:\n" + stderr);
            }
            String text = sb.toString().replace(absRoot, "");
            while (text.endsWith("\n\n")) {
                text = text.substring(0, text.length() - 1);
            }
            Files.writeString(outDir.resolve(f.getFileName() + ".txt"), text, StandardCharsets.UTF_8);
        }
    }

    /** Reads stdout and stderr of a child to the end, concurrently so neither pipe fills up. */
    static byte[][] drain(Process p) throws IOException, InterruptedException {
        byte[][] result = new byte[2][];
        Thread err = new Thread(() -> result[1] = readAll(p.getErrorStream()));
        err.start();
        result[0] = readAll(p.getInputStream());
        err.join();
        return result;
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return ("<read failed: " + e + ">").getBytes(StandardCharsets.UTF_8);
        }
    }
}
