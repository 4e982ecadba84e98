package io.segscope.examples.decoder;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.inspector.Segscope;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code segscope dump} with the example decoder: in-process (the plugin is on the test classpath,
 * found by ServiceLoader), and as a separate {@code java -jar segscope.jar} process that loads it
 * only through {@code --decoder-path} (a jar built from the compiled classes, and the class dir).
 */
class OrderCsvDecoderDumpTest {
    @TempDir
    static Path dir;
    static Path partition;
    static Path otherTopic;

    @BeforeAll
    static void segments() throws IOException {
        partition = write("orders-csv-0", new SimpleRecord(1000L, bytes("alice"), bytes("7,19.90,EUR")),
                new SimpleRecord(1001L, bytes("bob"), bytes("8,5,USD")),
                new SimpleRecord(1002L, bytes("carol"), bytes("not csv")),
                new SimpleRecord(1003L, bytes("dave"), null));
        otherTopic = write("payments-0", new SimpleRecord(1000L, bytes("alice"), bytes("7,19.90,EUR")));
    }

    @Test
    void inProcessThroughTheClasspath() {
        String text = run("dump", partition.toString());
        assertThat(text).contains(" decoder \"order-csv\" key \"alice\" value {\"id\":7,\"amount\":\"19.90\",\"currency\":\"EUR\"}")
                .contains(" decoder \"order-csv\" key \"dave\" value null")
                .contains(" decoder \"order-csv\" ERROR java.lang.IllegalArgumentException: expected id,amount,currency, got 1 field(s) key \"carol\" value \"not csv\"");
        String jsonl = run("dump", "--format", "jsonl", partition.toString());
        assertThat(jsonl).contains("\"content\":\"plugin\",\"decoder\":\"order-csv\",\"key\":\"bob\",\"value\":{\"id\":8,\"amount\":\"5\",\"currency\":\"USD\"}")
                .contains("\"content\":\"plain\",\"decoder\":\"order-csv\",\"key\":\"carol\"")
                .contains("\"error\":{\"reason\":\"decoder-failed\",\"message\":\"java.lang.IllegalArgumentException");
        assertThat(run("dump", otherTopic.toString())).doesNotContain("decoder").contains("key \"alice\" value \"7,19.90,EUR\"");
    }

    @Test
    void asAProcessThroughTheDecoderPath() throws Exception {
        Path jar = dir.resolve("plugins/order-csv.jar");
        Files.createDirectories(jar.getParent());
        jarOf(Path.of("target", "classes"), jar);
        for (Path path : List.of(jar, jar.getParent(), Path.of("target", "classes"))) {
            String text = process("dump", "--decoder-path", path.toString(), partition.toString());
            assertThat(text).as("--decoder-path %s", path)
                    .contains(" decoder \"order-csv\" key \"alice\" value {\"id\":7,\"amount\":\"19.90\",\"currency\":\"EUR\"}");
            String jsonl = process("dump", "--format", "jsonl", "--decoder-path", path.toString(), partition.toString());
            assertThat(jsonl).contains("\"decoder\":\"order-csv\",\"key\":\"alice\",\"value\":{\"id\":7,");
        }
        // without it, segscope.jar knows no plugin
        assertThat(process("dump", partition.toString())).doesNotContain("decoder").contains("key \"alice\" value \"7,19.90,EUR\"");
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            int exit = Segscope.newCommandLine(o, e).execute(args);
            assertThat(exit).as(err.toString()).isZero();
        }
        return out.toString();
    }

    private static String process(String... args) throws Exception {
        Path segscopeJar = Path.of("..", "..", "inspector", "target", "segscope.jar");
        assertThat(segscopeJar).as("built by the inspector module (mvn -am)").exists();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", segscopeJar.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", cmd)).isZero();
        return out;
    }

    private static void jarOf(Path classes, Path jar) throws IOException {
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
    }

    private static Path write(String partitionDir, SimpleRecord... records) throws IOException {
        Path p = dir.resolve(partitionDir);
        Files.createDirectories(p);
        ByteBuffer b = MemoryRecords.withRecords(Compression.NONE, records).buffer();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        Files.write(p.resolve("00000000000000000000.log"), a);
        return p;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
