package io.segscope.inspector.cmd;

import io.segscope.format.coordinator.CoordinatorPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code segscope locate}: which {@code __consumer_offsets} partition holds a group, by Kafka's
 * rule ({@link CoordinatorPartition}). The same rule places transactional ids in
 * {@code __transaction_state}.
 */
@Command(name = "locate", mixinStandardHelpOptions = true,
        description = "Print the __consumer_offsets partition of each group (Kafka's abs(hashCode) %% partitions).")
public final class LocateCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "GROUP", description = "Group ids (or transactional ids).")
    List<String> groups;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "50",
            description = "offsets.topic.num.partitions (default 50).")
    int partitionCount;

    @Option(names = "--topic", defaultValue = "__consumer_offsets",
            description = "Topic name printed with the partition (e.g. __transaction_state).")
    String topic;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (partitionCount <= 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--partitions must be positive");
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String g : groups) {
            out.print(TextQuote.quote(g) + "\t" + topic + "-" + CoordinatorPartition.of(g, partitionCount) + "\n");
        }
        out.flush();
        return 0;
    }
}
