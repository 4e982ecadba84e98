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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.utils.internals.Exit;

/**
 * Runs Kafka's own command-line tools (4.4.0, in this JVM) against the live cluster just after
 * {@link AdminSnapshot}, and keeps what they print in {@code <run>/tools/<name>.txt} (stderr in
 * {@code <name>.err} when not empty): {@code kafka-transactions} ({@code list}, {@code describe}
 * of every transactional id, {@code find-hanging} per broker with the default and a zero
 * {@code --max-transaction-timeout}), {@code kafka-consumer-groups --describe --all-groups} and
 * {@code kafka-get-offsets} for the special times and timestamps inside the data. Each tool's
 * arguments (bootstrap servers masked), exit code and files are listed in
 * {@code tools/tools.json}.
 *
 * <p>The tools end through {@code Exit.exit} (TransactionsCommand always, GetOffsetShell always,
 * ConsumerGroupCommand on errors): the exit procedure is replaced by one that throws, so the
 * generator's JVM keeps running and the code is recorded. They are looked up reflectively because
 * kafka-tools is on the generator's class path at run time only.
 */
final class KafkaTools {
    static final String TRANSACTIONS = "org.apache.kafka.tools.TransactionsCommand";
    static final String CONSUMER_GROUPS = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand";
    static final String GET_OFFSETS = "org.apache.kafka.tools.GetOffsetShell";
    /** A stopped broker makes a tool wait this long, not the Admin's default minute. */
    static final String COMMAND_CONFIG = "default.api.timeout.ms=15000\nrequest.timeout.ms=10000\n";

    /** Thrown by the replaced exit procedure to end a tool's {@code main}. */
    private static final class ToolExit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;

        ToolExit(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    private final Path toolsDir;
    private final String bootstrap;
    private final Path commandConfig;
    private final List<Object> index = new ArrayList<>();

    KafkaTools(Path toolsDir, String bootstrap, Path scratch) throws IOException {
        this.toolsDir = toolsDir;
        this.bootstrap = bootstrap;
        Files.createDirectories(scratch);
        this.commandConfig = scratch.resolve("tools.properties");
        Files.writeString(commandConfig, COMMAND_CONFIG, StandardCharsets.UTF_8);
    }

    /**
     * Every tool run of the corpus, in a fixed order; returns what {@code tools/tools.json} holds.
     *
     * @param brokerIds        every broker of the cluster (find-hanging runs once per broker)
     * @param transactionalIds the transactional ids {@code listTransactions} reported
     * @param timestamps       timestamps inside the data for {@code kafka-get-offsets --time}
     */
    List<Object> runAll(Set<Integer> brokerIds, List<String> transactionalIds, List<Long> timestamps) throws IOException {
        Files.createDirectories(toolsDir);
        run("transactions-list", TRANSACTIONS, "--command-config", "<tools.properties>", "--bootstrap-server", "<bootstrap>", "list");
        for (String id : new TreeSet<>(transactionalIds)) {
            run("transactions-describe-" + fileName(id), TRANSACTIONS, "--command-config", "<tools.properties>",
                    "--bootstrap-server", "<bootstrap>", "describe", "--transactional-id", id);
        }
        for (int b : new TreeSet<>(brokerIds)) {
            run("transactions-find-hanging-broker-" + b, TRANSACTIONS, "--command-config", "<tools.properties>",
                    "--bootstrap-server", "<bootstrap>", "find-hanging", "--broker-id", String.valueOf(b));
            run("transactions-find-hanging-broker-" + b + "-max-timeout-0", TRANSACTIONS, "--command-config",
                    "<tools.properties>", "--bootstrap-server", "<bootstrap>", "find-hanging", "--broker-id",
                    String.valueOf(b), "--max-transaction-timeout", "0");
        }
        run("consumer-groups-describe-all-groups", CONSUMER_GROUPS, "--command-config", "<tools.properties>",
                "--bootstrap-server", "<bootstrap>", "--describe", "--all-groups");
        List<String> times = new ArrayList<>(List.of("-1", "-2", "-3", "-4"));
        for (long t : timestamps) {
            times.add(String.valueOf(t));
        }
        for (String t : times) {
            run("get-offsets-time-" + t, GET_OFFSETS, "--command-config", "<tools.properties>",
                    "--bootstrap-server", "<bootstrap>", "--time", t);
        }
        Json.write(toolsDir.resolve("tools.json"), index);
        return index;
    }

    /** The transactional ids of an {@link AdminSnapshot} ({@code transactions}). */
    static List<String> transactionalIds(Map<String, Object> snapshot) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) snapshot.get("transactions")) {
            out.add((String) ((Map<?, ?>) o).get("transactionalId"));
        }
        return out;
    }

    /** The {@code forTimestamp} probes of an {@link AdminSnapshot} ({@code probeTimestamps}). */
    @SuppressWarnings("unchecked")
    static List<Long> probeTimestamps(Map<String, Object> snapshot) {
        return (List<Long>) snapshot.get("probeTimestamps");
    }

    /** A transactional id as part of a file name: anything but ASCII letters, digits, '.' and '-' becomes '_'. */
    static String fileName(String id) {
        StringBuilder b = new StringBuilder();
        for (char c : id.toCharArray()) {
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '-') ? c : '_');
        }
        return b.toString();
    }

    private void run(String name, String tool, String... recordedArgs) throws IOException {
        List<String> args = new ArrayList<>();
        for (String a : recordedArgs) {
            args.add(a.equals("<bootstrap>") ? bootstrap : a.equals("<tools.properties>") ? commandConfig.toString() : a);
        }
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        Integer exit = null;
        Exit.setExitProcedure((code, message) -> {
            throw new ToolExit(code);
        });
        try (PrintStream o = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            try {
                Method main = Class.forName(tool).getMethod("main", String[].class);
                main.invoke(null, (Object) args.toArray(new String[0]));
                exit = 0;
            } catch (InvocationTargetException ex) {
                if (ex.getCause() instanceof ToolExit) {
                    exit = ((ToolExit) ex.getCause()).code;
                } else {
                    e.println(ex.getCause());
                }
            } catch (ReflectiveOperationException ex) {
                throw new IllegalStateException(tool, ex);
            } finally {
                System.out.flush();
                System.setOut(oldOut);
                System.setErr(oldErr);
            }
        }
        String out = mask(outBytes.toString(StandardCharsets.UTF_8));
        String err = mask(errBytes.toString(StandardCharsets.UTF_8));
        Files.writeString(toolsDir.resolve(name + ".txt"), out, StandardCharsets.UTF_8);
        if (!err.isEmpty()) {
            Files.writeString(toolsDir.resolve(name + ".err"), err, StandardCharsets.UTF_8);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", name + ".txt");
        m.put("stderrFile", err.isEmpty() ? null : name + ".err");
        m.put("tool", tool);
        m.put("args", List.of(recordedArgs));
        m.put("commandConfig", COMMAND_CONFIG);
        m.put("exitCode", exit);
        index.add(m);
        System.out.println("  tool " + name + ": exit " + exit + ", " + out.lines().count() + " lines");
    }

    private String mask(String text) {
        return text.replace(bootstrap, "<bootstrap>").replace(commandConfig.toString(), "<tools.properties>");
    }
}
