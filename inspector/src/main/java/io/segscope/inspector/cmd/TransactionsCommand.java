package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.inventory.OpenTransaction;
import io.segscope.format.inventory.PartitionReplicas;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.inventory.TransactionCoordinatorState;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code segscope transactions}: the transactions open at the end of each partition's log, and which of them hang. */
@Command(name = "transactions", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the transactions open at the end of each partition's log.",
            "From the batches, markers and producer snapshots (producer id, epoch, first offset,",
            "age), joined with __transaction_state when it is among the PATHs (transactional id,",
            "the coordinator's state). A transaction hangs, as kafka-transactions.sh find-hanging",
            "says, when it has been open longer than --max-transaction-timeout and the coordinator",
            "has no ongoing transaction of that producer holding the partition.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no hanging transaction", "1:hanging transactions (or damage: stderr)",
            "2:usage error", "3:I/O error"})
public final class TransactionsCommand implements Callable<Integer> {
    enum Format { table, jsonl, kafka }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dirs (one or several brokers'), partition dirs, or archives.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "table",
            description = "table (default), jsonl, or kafka: the hanging transactions as kafka-transactions.sh find-hanging prints them.")
    Format format;

    @Option(names = "--max-transaction-timeout", paramLabel = "MINUTES", defaultValue = "15",
            description = "As find-hanging's option: only transactions idle longer than this can hang (default 15, Kafka's transaction.max.timeout.ms).")
    int maxTimeoutMinutes;

    @Option(names = "--now", paramLabel = "TIME", converter = TimeConverter.class,
            description = "The moment ages are counted to (ISO-8601 or epoch ms). Default: the end of the data, the latest timestamp in the"
                    + " partitions and transaction records read (the moment the broker stopped, as near as the files tell).")
    Long now;

    @Option(names = "--hanging", description = "Only the hanging transactions.")
    boolean onlyHanging;

    @Option(names = "--list",
            description = "Instead, every transactional id the coordinators had in __transaction_state, as kafka-transactions.sh list prints them"
                    + " (TransactionalId, Coordinator: the last leader of its __transaction_state partition in the metadata log, -1 unknown,"
                    + " ProducerId, TransactionState); jsonl adds the epoch, timeout, start time, partitions and the record.")
    boolean list;

    @CommandLine.Mixin
    OptionValues.ReadOptions read;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One open transaction with its verdict. */
    record Row(ReplicaState replica, OpenTransaction txn, TransactionCoordinatorState.Txn coordinator, long idleMs, long ageMs,
               boolean hanging, String verdict) {
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (maxTimeoutMinutes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-transaction-timeout must be 0 or more, not " + maxTimeoutMinutes);
        }
        try (InventorySource source = InventorySource.open("transactions", paths, err)) {
            TransactionCoordinatorState coord = source.transactionState(read.readerOptions());
            if (list) {
                return list(out, err, source, coord);
            }
            List<PartitionReplicas> parts = source.scan(false, read.readerOptions(), t -> true);
            // damage met in a replica (as partitions reports it): the open transactions may be incomplete
            boolean damage = false;
            for (PartitionReplicas p : parts) {
                for (ReplicaState r : p.replicas()) {
                    for (io.segscope.format.error.FormatException e : r.problems()) {
                        err.print("transactions: " + e.getMessage() + "\n");
                        damage = true;
                    }
                }
            }
            long end = now != null ? now : endOfData(parts, coord);
            Map<Long, TransactionCoordinatorState.Txn> byPid = coord.indexByProducerId();
            List<Row> rows = new ArrayList<>();
            for (PartitionReplicas p : parts) {
                ReplicaState r = p.leader();
                for (OpenTransaction o : r.openTransactions()) {
                    Row row = judge(r, o, coord, byPid, end, maxTimeoutMinutes);
                    if (!onlyHanging || row.hanging()) {
                        rows.add(row);
                    }
                }
            }
            if (format == Format.kafka) {
                List<List<String>> hanging = new ArrayList<>();
                for (Row row : rows) {
                    if (row.hanging()) {
                        OpenTransaction o = row.txn();
                        hanging.add(List.of(row.replica().topic(), Integer.toString(row.replica().partition()),
                                Long.toString(o.producerId()), Short.toString(o.producerEpoch()), Integer.toString(o.coordinatorEpoch()),
                                Long.toString(o.firstOffset()), Long.toString(o.lastTimestamp()), minutes(row.idleMs())));
                    }
                }
                out.print(toolTable(List.of("Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch", "StartOffset",
                        "LastTimestamp", "Duration(min)"), hanging));
            } else if (format == Format.jsonl) {
                JsonGenerator g = new JsonFactory().createGenerator(out);
                g.setRootValueSeparator(null);
                for (Row row : rows) {
                    json(g, row, end);
                    g.flush();
                    out.print('\n');
                }
            } else {
                Table table = new Table("TOPIC", "PARTITION", "BROKER", "PRODUCER-ID", "EPOCH", "COORDINATOR-EPOCH", "START-OFFSET",
                        "STARTED", "LAST-TIMESTAMP", "IDLE-MIN", "TRANSACTIONAL-ID", "COORDINATOR-STATE", "VERDICT");
                for (Row row : rows) {
                    ReplicaState r = row.replica();
                    OpenTransaction o = row.txn();
                    TransactionCoordinatorState.Txn t = row.coordinator();
                    table.add(Table.cell(r.topic()), Integer.toString(r.partition()),
                            r.brokerId().isPresent() ? Integer.toString(r.brokerId().getAsInt()) : "-", Long.toString(o.producerId()),
                            Short.toString(o.producerEpoch()), Integer.toString(o.coordinatorEpoch()), Long.toString(o.firstOffset()),
                            Times.iso(o.firstTimestamp()), Times.iso(o.lastTimestamp()), minutes(row.idleMs()),
                            t == null ? "-" : Table.cell(t.transactionalId()), t == null ? "-" : t.state(), row.verdict());
                }
                if (table.size() > 0) {
                    table.print(out);
                }
                out.print((table.size() > 0 ? "\n" : "") + rows.size() + " open transaction(s), "
                        + rows.stream().filter(Row::hanging).count() + " hanging, ages counted to " + Times.iso(end)
                        + (now == null ? " (the end of the data)" : "") + "; coordinator state: "
                        + (coord.known() ? coord.all().size() + " transactional id(s) from " + coord.partitionsRead() + " __transaction_state partition(s)"
                        : "not among the PATHs") + "\n");
            }
            out.flush();
            if (source.ioError()) {
                return Segscope.EXIT_IO;
            }
            return damage || rows.stream().anyMatch(Row::hanging) ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        }
    }

    /**
     * An open transaction's verdict, as find-hanging decides it: hanging when idle longer than the
     * timeout and the coordinator (when __transaction_state is read) has no ongoing transaction of its
     * producer holding the partition. Shared with {@code report}.
     */
    static Row judge(ReplicaState r, OpenTransaction o, TransactionCoordinatorState coord,
                     Map<Long, TransactionCoordinatorState.Txn> byPid, long end, int maxTimeoutMinutes) {
        long maxTimeoutMs = TimeUnit.MINUTES.toMillis(maxTimeoutMinutes);
        TransactionCoordinatorState.Txn t = byPid.get(o.producerId());
        long idle = o.lastTimestamp() < 0 ? -1 : end - o.lastTimestamp();
        long age = o.firstTimestamp() < 0 ? -1 : end - o.firstTimestamp();
        boolean candidate = idle > maxTimeoutMs;
        boolean unknownToCoordinator = t == null || !t.partitions().contains(r.topicPartition());
        boolean hanging;
        String verdict;
        if (coord.known()) {
            hanging = candidate && unknownToCoordinator;
            if (!unknownToCoordinator) {
                verdict = "open: the coordinator has it " + t.state() + " with this partition";
            } else {
                String why = t == null ? "no transactional id has producer id " + o.producerId() + " in __transaction_state"
                        : "the coordinator's transaction of " + TextQuote.quote(t.transactionalId()) + " is " + t.state()
                        + " without this partition";
                verdict = hanging ? "hanging: " + why + ", idle " + minutes(idle) + " min (> " + maxTimeoutMinutes + ")"
                        : "open: " + why + "; idle " + minutes(idle) + " min, not yet past " + maxTimeoutMinutes;
            }
        } else {
            hanging = false;
            verdict = candidate ? "maybe hanging: idle " + minutes(idle) + " min (> " + maxTimeoutMinutes
                    + "); __transaction_state is not among the PATHs to tell"
                    : "open; __transaction_state is not among the PATHs";
        }
        return new Row(r, o, t, idle, age, hanging, verdict);
    }

    /** kafka-transactions.sh list, from the files. */
    private int list(PrintWriter out, PrintWriter err, InventorySource source, TransactionCoordinatorState coord) throws IOException {
        if (!coord.known()) {
            err.print("transactions: no __transaction_state partition among the PATHs: no transactional id to list\n");
            return source.ioError() ? Segscope.EXIT_IO : Segscope.EXIT_OK;
        }
        JsonGenerator g = null;
        if (format == Format.jsonl) {
            g = new JsonFactory().createGenerator(out);
            g.setRootValueSeparator(null);
        }
        List<List<String>> rows = new ArrayList<>();
        for (TransactionCoordinatorState.Txn t : coord.all()) {
            int coordinator = source.metadata() == null ? -1
                    : source.metadata().leader("__transaction_state", t.coordinatorPartition()).orElse(-1);
            if (g != null) {
                g.writeStartObject();
                g.writeNumberField("coordinator", coordinator);
                g.writeNumberField("coordinatorPartition", t.coordinatorPartition());
                writeCoordinatorState(g, t);
                g.writeEndObject();
                g.flush();
                out.print('\n');
            } else {
                rows.add(List.of(t.transactionalId(), Integer.toString(coordinator), Long.toString(t.producerId()), t.state()));
            }
        }
        if (g == null) {
            out.print(toolTable(List.of("TransactionalId", "Coordinator", "ProducerId", "TransactionState"), rows));
        }
        out.flush();
        return source.ioError() ? Segscope.EXIT_IO : Segscope.EXIT_OK;
    }

    /** Kafka's {@code ToolsUtils.prettyPrintTable}: each cell left-aligned to its column's width, then a tab. */
    static String toolTable(List<String> headers, List<List<String>> rows) {
        int[] w = new int[headers.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = headers.get(i).length();
            for (List<String> r : rows) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        List<List<String>> all = new ArrayList<>();
        all.add(headers);
        all.addAll(rows);
        for (List<String> r : all) {
            for (int i = 0; i < w.length; i++) {
                sb.append(r.get(i));
                sb.append(" ".repeat(w[i] - r.get(i).length())).append('\t');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A transactional id's last state in __transaction_state, as JSON fields. */
    private static void writeCoordinatorState(JsonGenerator g, TransactionCoordinatorState.Txn t) throws IOException {
        g.writeStringField("transactionalId", t.transactionalId());
        g.writeNumberField("producerId", t.producerId());
        g.writeNumberField("producerEpoch", t.producerEpoch());
        g.writeStringField("state", t.state());
        g.writeNumberField("timeoutMs", t.timeoutMs());
        PartitionsCommand.writeTime(g, "startTimestamp", t.startTimestamp());
        PartitionsCommand.writeTime(g, "lastUpdateTimestamp", t.lastUpdateTimestamp());
        g.writeArrayFieldStart("partitions");
        for (String tp : t.partitions()) {
            g.writeString(tp);
        }
        g.writeEndArray();
        g.writeStringField("record", "__transaction_state-" + t.coordinatorPartition() + "@" + t.offset());
    }

    private static String minutes(long ms) {
        return ms < 0 ? "-" : Long.toString(TimeUnit.MILLISECONDS.toMinutes(ms));
    }

    /** The latest timestamp the partitions and the coordinator's records hold. */
    static long endOfData(List<PartitionReplicas> parts, TransactionCoordinatorState coord) {
        long end = -1;
        for (PartitionReplicas p : parts) {
            for (ReplicaState r : p.replicas()) {
                end = Math.max(end, r.maxTimestamp());
            }
        }
        for (TransactionCoordinatorState.Txn t : coord.all()) {
            end = Math.max(end, t.lastUpdateTimestamp());
        }
        return end;
    }

    private static void json(JsonGenerator g, Row row, long end) throws IOException {
        ReplicaState r = row.replica();
        OpenTransaction o = row.txn();
        TransactionCoordinatorState.Txn t = row.coordinator();
        g.writeStartObject();
        g.writeStringField("topic", r.topic());
        g.writeNumberField("partition", r.partition());
        if (r.brokerId().isPresent()) {
            g.writeNumberField("broker", r.brokerId().getAsInt());
        } else {
            g.writeNullField("broker");
        }
        g.writeNumberField("producerId", o.producerId());
        g.writeNumberField("producerEpoch", o.producerEpoch());
        g.writeNumberField("coordinatorEpoch", o.coordinatorEpoch());
        g.writeNumberField("firstOffset", o.firstOffset());
        PartitionsCommand.writeTime(g, "firstTimestamp", o.firstTimestamp());
        PartitionsCommand.writeTime(g, "lastTimestamp", o.lastTimestamp());
        g.writeNumberField("now", end);
        PartitionsCommand.writeTime(g, "idleMs", row.idleMs());
        PartitionsCommand.writeTime(g, "ageMs", row.ageMs());
        g.writeNumberField("lastStableOffset", r.lastStableOffset());
        if (t == null) {
            g.writeNullField("coordinator");
        } else {
            g.writeObjectFieldStart("coordinator");
            writeCoordinatorState(g, t);
            g.writeEndObject();
        }
        g.writeBooleanField("hanging", row.hanging());
        g.writeStringField("verdict", row.verdict());
        g.writeEndObject();
    }
}
