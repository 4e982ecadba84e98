package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.CoordinatorPartition;
import io.segscope.format.inventory.MetadataTopics;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.input.Inputs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code segscope locate}: which partition of {@code __consumer_offsets} (or
 * {@code __transaction_state}) holds a group (or transactional id), by Kafka's rule
 * ({@link CoordinatorPartition}), with the partition count read from the log dirs given.
 */
@Command(name = "locate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the coordinator partition of each group: Kafka's abs(hashCode) %% partitions.",
            "The partition count comes from --partitions, else from the log dirs given with",
            "--log-dir (the KRaft metadata log's record of the topic; without one, the",
            "highest partition dir + 1, a lower bound since a broker holds only its",
            "replicas), else Kafka's default 50. With --log-dir each line also says which",
            "dir holds the partition, or that none of them does.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "2:usage error", "3:I/O error"})
public final class LocateCommand implements Callable<Integer> {
    enum Format { text, jsonl }

    @Parameters(arity = "1..*", paramLabel = "GROUP", description = "Group ids (or transactional ids).")
    List<String> groups;

    @Option(names = "--log-dir", paramLabel = "PATH",
            description = "A broker log dir (or archive of one) to read the partition count from and look the partitions up in. Repeatable.")
    List<Path> logDirs;

    @Option(names = "--partitions", paramLabel = "N",
            description = "offsets.topic.num.partitions (or transaction.state.log.num.partitions); overrides what the log dirs say.")
    Integer partitionCount;

    @Option(names = "--topic", defaultValue = "__consumer_offsets",
            description = "__consumer_offsets (default) or __transaction_state.")
    String topic;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or jsonl.")
    Format format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where the partition count came from. */
    private record Count(int partitions, String source) {
    }

    @Override
    public Integer call() throws IOException {
        if (partitionCount != null && partitionCount <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--partitions must be positive, not " + partitionCount);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (logDirs == null) {
            Count count = new Count(partitionCount != null ? partitionCount : 50,
                    partitionCount != null ? "option" : "default");
            write(out, count, List.of());
            return Segscope.EXIT_OK;
        }
        try (Inputs inputs = Inputs.resolve(logDirs, Include.none(), EnumSet.of(FileKind.LOG))) {
            // unreadable, or an archive cut short (the partition dirs after the cut are missing: "not
            // in the log dirs given" and a count from the highest dir would be wrong)
            if (!inputs.unreadablePaths().isEmpty() || !inputs.truncations().isEmpty()) {
                for (io.segscope.format.error.FormatException e : inputs.unreadablePaths()) {
                    err.print(e.getMessage() + "\n");
                }
                for (io.segscope.format.error.FormatException e : inputs.truncations()) {
                    err.print(e.getMessage() + "\n");
                }
                return Segscope.EXIT_IO;
            }
            List<PartitionDir> dirs = new ArrayList<>();
            for (LogDir d : inputs.logDirs()) {
                for (PartitionDir p : d.partitions()) {
                    if (p.topic().equals(topic)) {
                        dirs.add(p);
                    }
                }
            }
            Count count = count(inputs, dirs, err);
            write(out, count, dirs);
        }
        return Segscope.EXIT_OK;
    }

    private Count count(Inputs inputs, List<PartitionDir> dirs, PrintWriter err) {
        List<LogFile> metadata = new ArrayList<>();
        for (LogFile f : inputs.files()) {
            if (f.isMetadataLog() && f.kind() != FileKind.BOOTSTRAP_CHECKPOINT) {
                metadata.add(f);
            }
        }
        Optional<MetadataTopics.Topic> known = metadata.isEmpty() ? Optional.empty()
                : MetadataTopics.replay(metadata).topic(topic);
        int fromDirs = 0;
        for (PartitionDir p : dirs) {
            fromDirs = Math.max(fromDirs, p.partition() + 1);
        }
        if (partitionCount != null) {
            if (known.isPresent() && known.get().partitions() != partitionCount) {
                err.print("locate: --partitions " + partitionCount + " differs from the " + known.get().partitions()
                        + " partitions the KRaft metadata log records for " + topic + "\n");
            }
            return new Count(partitionCount, "option");
        }
        if (known.isPresent() && known.get().partitions() > 0) {
            return new Count(known.get().partitions(), "metadata-log");
        }
        if (fromDirs > 0) {
            err.print("locate: " + fromDirs + " partitions of " + topic + " assumed from its partition dirs (the highest + 1);"
                    + " a broker holds only its replicas: give --partitions if the cluster has more\n");
            return new Count(fromDirs, "partition-dirs");
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "no " + topic
                + " partition dir and no KRaft metadata record of it in the log dirs given: give --partitions");
    }

    private void write(PrintWriter out, Count count, List<PartitionDir> dirs) throws IOException {
        JsonGenerator json = null;
        if (format == Format.jsonl) {
            json = new JsonFactory().createGenerator(out);
            json.setRootValueSeparator(null);
        }
        for (String g : groups) {
            int p = CoordinatorPartition.of(g, count.partitions());
            List<String> holders = new ArrayList<>();
            for (PartitionDir d : dirs) {
                if (d.partition() == p) {
                    holders.add(d.dir().path());
                }
            }
            if (json != null) {
                json.writeStartObject();
                json.writeStringField("group", g);
                json.writeStringField("topic", topic);
                json.writeNumberField("partition", p);
                json.writeNumberField("partitions", count.partitions());
                json.writeStringField("partitionsFrom", count.source());
                if (logDirs != null) {
                    json.writeArrayFieldStart("dirs");
                    for (String h : holders) {
                        json.writeString(h);
                    }
                    json.writeEndArray();
                }
                json.writeEndObject();
                json.flush();
                out.print('\n');
            } else {
                StringBuilder line = new StringBuilder(TextQuote.quote(g)).append('\t').append(topic).append('-').append(p);
                if (logDirs != null) {
                    line.append('\t').append(holders.isEmpty() ? "not in the log dirs given" : String.join(" ", holders));
                }
                out.print(line.append('\n'));
            }
        }
        out.flush();
    }

}
