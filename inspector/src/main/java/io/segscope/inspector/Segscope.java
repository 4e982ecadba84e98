package io.segscope.inspector;

import io.segscope.format.error.FormatException;
import io.segscope.inspector.output.CheckedOutput;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** The {@code segscope} command line. */
@Command(name = "segscope", mixinStandardHelpOptions = true, version = "segscope 0.1.0",
        description = "Reads Apache Kafka's on-disk data offline.",
        subcommands = {io.segscope.inspector.cmd.DumpCommand.class, io.segscope.inspector.cmd.LocateCommand.class,
            io.segscope.inspector.cmd.OffsetsCommand.class, io.segscope.inspector.cmd.GroupsCommand.class,
            io.segscope.inspector.cmd.HistoryCommand.class, io.segscope.inspector.cmd.CompactCommand.class,
            io.segscope.inspector.cmd.VerifyCommand.class, io.segscope.inspector.cmd.PartitionsCommand.class, io.segscope.inspector.cmd.LagCommand.class, io.segscope.inspector.cmd.TransactionsCommand.class, io.segscope.inspector.cmd.CompatCommand.class, io.segscope.inspector.cmd.ReportCommand.class,
            io.segscope.inspector.cmd.ZkOffsetsCommand.class, io.segscope.inspector.cmd.ZkTreeCommand.class,
            io.segscope.inspector.cmd.CompletionCommand.class, CommandLine.HelpCommand.class},
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

    /**
     * Output is UTF-8 whatever the platform charset (group ids and metadata are UTF-8 in Kafka;
     * a C locale must not turn them into question marks), buffered, flushed at the end.
     */
    public static void main(String[] args) {
        CheckedOutput stdout = new CheckedOutput(new FileOutputStream(FileDescriptor.out));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), 1 << 16));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8));
        io.segscope.inspector.output.OutputBytes.register(out, stdout);
        int code;
        try {
            code = newCommandLine(out, err).execute(args);
        } catch (OutOfMemoryError e) {
            // what the command held is unreachable now: enough room to say so, without a stack trace
            out.flush();
            err.println("segscope: out of memory: the Java heap (" + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB) is too small for this input; give more with SEGSCOPE_JAVA_OPTS=-Xmx2g (or more);"
                    + " the output is incomplete");
            code = EXIT_IO;
        }
        out.flush();
        if (stdout.failure() != null && !stdout.readerHasGone()) {
            // a full disk or a closed file: the output is incomplete, which must not pass for success
            err.println("segscope: cannot write the output: " + stdout.failure().getMessage()
                    + "; what was written is incomplete");
            code = EXIT_IO;
        }
        err.flush();
        System.exit(code);
    }

    public static CommandLine newCommandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Segscope());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        io.segscope.inspector.cmd.VerifyCommand.describeKinds(cl.getSubcommands().get("verify"));
        // `segscope dump -V` prints the version like `segscope -V`
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().version(cl.getCommandSpec().version());
        }
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
}
