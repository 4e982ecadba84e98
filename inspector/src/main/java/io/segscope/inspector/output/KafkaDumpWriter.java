package io.segscope.inspector.output;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.json.MetadataJson;
import io.segscope.format.record.Batch;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;
import io.segscope.format.error.FormatException;
import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.index.TxnIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.state.ProducerSnapshotReader;
import io.segscope.inspector.input.Inputs;
import io.segscope.inspector.input.RandomAccess;
import io.segscope.inspector.input.Target;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * The exact lines of Kafka 4.4's {@code kafka-dump-log.sh --deep-iteration} with the decoder
 * matching the topic ({@code --offsets-decoder}, {@code --transaction-log-decoder},
 * {@code --share-group-state-decoder}; {@code --print-data-log} on request for other topics), for
 * scripts written against it. Kafka prints "Non-consecutive offsets" to stderr after all files;
 * so does this writer, at {@link #flush()}.
 *
 * <p>Documented deviations, where Kafka's own tool fails: damage that makes Kafka throw (and
 * stop the whole run with a stack trace) is one line on stderr naming the file, position and
 * violation, and the next file is dumped.
 */
public final class KafkaDumpWriter implements DumpWriter {
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean printData;
    private final Map<String, Map<Long, Long>> nonConsecutive = new LinkedHashMap<>();
    private long lastOffset;
    private StringBuilder line = new StringBuilder(256);

    public KafkaDumpWriter(PrintWriter out, PrintWriter err, boolean printData) {
        this.out = out;
        this.err = err;
        this.printData = printData;
    }

    @Override
    public void beginFile(Target target) {
        out.print("Dumping " + target.display() + "\n");
        lastOffset = -1;
        String name = target.file().name();
        if (name.endsWith(".log")) {
            out.print("Log starting offset: " + Long.parseLong(name.split("\\.")[0]) + "\n");
        } else if (name.equals("bootstrap.checkpoint")) {
            out.print("KRaft bootstrap snapshot\n");
        } else {
            Matcher m = Inputs.KRAFT_SNAPSHOT.matcher(name);
            if (m.matches()) {
                out.print("Snapshot end offset: " + Long.parseLong(m.group(1)) + ", epoch: " + Integer.parseInt(m.group(2)) + "\n");
            }
        }
    }

    @Override
    public void batch(Target target, Batch b) {
        line.setLength(0);
        if (b.magic() >= 2) {
            line.append("baseOffset: ").append(b.baseOffset())
                    .append(" lastOffset: ").append(b.lastOffset())
                    .append(" count: ").append(b.countOrMinusOne())
                    .append(" baseSequence: ").append(b.baseSequence())
                    .append(" lastSequence: ").append(b.lastSequence())
                    .append(" producerId: ").append(b.producerId())
                    .append(" producerEpoch: ").append(b.producerEpoch())
                    .append(" partitionLeaderEpoch: ").append(b.partitionLeaderEpoch())
                    .append(" isTransactional: ").append(b.isTransactional())
                    .append(" isControl: ").append(b.isControl())
                    .append(" deleteHorizonMs: ")
                    .append(b.hasDeleteHorizon() ? "OptionalLong[" + b.deleteHorizonMs() + "]" : "OptionalLong.empty");
        } else {
            line.append("offset: ").append(b.lastOffset());
        }
        line.append(" position: ").append(b.position())
                .append(' ').append(b.timestampType().kafkaName).append(": ").append(b.maxTimestamp())
                .append(" size: ").append(b.sizeInBytes())
                .append(" magic: ").append(b.magic())
                .append(" compresscodec: ").append(b.compression() == null ? "unknown" : b.compression().kafkaName)
                .append(" crc: ").append(b.storedCrc())
                .append(" isvalid: ").append(b.isValid())
                .append('\n');
        out.print(line);
    }

    @Override
    public void record(Target target, Batch b, LogRecord r, RecordContent content) {
        if (r.offset() != lastOffset + 1) {
            nonConsecutive.computeIfAbsent(target.display(), k -> new TreeMap<>()).put(lastOffset, r.offset());
        }
        lastOffset = r.offset();
        line.setLength(0);
        line.append("| offset: ").append(r.offset()).append(' ').append(b.timestampType().kafkaName).append(": ")
                .append(r.timestamp())
                .append(" keySize: ").append(r.keyLength())
                .append(" valueSize: ").append(r.valueLength());
        if (b.magic() >= 2) {
            line.append(" sequence: ").append(r.sequence()).append(" headerKeys: [");
            HeaderIterator h = r.headers();
            boolean first = true;
            while (h.next()) {
                if (!first) {
                    line.append(',');
                }
                first = false;
                line.append(ByteFormat.kafkaUtf8(h.buffer(), h.keyOffset(), h.keyLength()));
            }
            line.append(']');
        } else {
            line.append(" isValid: ").append(r.isValid()).append(" crc: ").append(r.checksumOrMinusOne());
        }
        if (content instanceof RecordContent.Control c) {
            appendControl(c);
        } else if (content instanceof RecordContent.Metadata m) {
            line.append(" payload: ").append(MetadataJson.dumpPayloadText(m.result(), r.offset()));
        } else if (content instanceof RecordContent.Coordinator c) {
            CoordinatorResult result = c.result();
            line.append(" key: ").append(CoordinatorJson.dumpKeyText(result, r.offset()));
            String payload = CoordinatorJson.dumpPayloadText(result);
            if (payload != null) {
                line.append(" payload: ").append(payload);
            }
        } else if (printData) {
            String prefix = " ";
            if (r.hasKey()) {
                line.append(prefix).append("key: ").append(ByteFormat.kafkaUtf8(r.buffer(), r.keyOffset(), r.keyLength()));
            }
            if (r.hasValue()) {
                line.append(prefix).append("payload: ").append(ByteFormat.kafkaUtf8(r.buffer(), r.valueOffset(), r.valueLength()));
            }
        }
        line.append('\n');
        out.print(line);
    }

    private void appendControl(RecordContent.Control c) {
        String text = c.value() == null ? null : MetadataJson.controlText(c.value());
        if (text != null) {
            line.append(text);
        } else {
            // Kafka's tool throws here and stops the whole run; segscope says why and goes on
            line.append(" controlError: ").append(c.error() != null ? c.error() : c.valueError());
        }
    }

    /** Index, time index, transaction index and producer snapshot files, as DumpLogSegments prints them. */
    @Override
    public void sideFile(Target target) {
        out.print("Dumping " + target.display() + "\n");
        if (target.kind() == null) {
            err.print("Ignoring unknown file " + target.display() + "\n");
            return;
        }
        try (ByteSource source = RandomAccess.open(target.file())) {
            switch (target.kind()) {
                case INDEX -> {
                    // Kafka assumes the file is exact and stops at a slot > 0 holding the base offset; a
                    // preallocated index whose slot 0 is zero is empty, not an entry (position 0, base offset).
                    OffsetIndexReader index = new OffsetIndexReader().wrap(source, target.baseOffset());
                    if (index.entries() == 0) {
                        out.print(target.display() + " is empty.\n");
                    }
                    for (int i = 0; i < index.entries(); i++) {
                        out.print("offset: " + index.offset(i) + " position: " + index.position(i) + "\n");
                    }
                }
                case TIME_INDEX -> {
                    TimeIndexReader index = new TimeIndexReader().wrap(source, target.baseOffset());
                    for (int i = 0; i < index.entries(); i++) {
                        out.print("timestamp: " + index.timestamp(i) + " offset: " + index.offset(i) + "\n");
                    }
                }
                case TXN_INDEX -> {
                    TxnIndexReader index = new TxnIndexReader().wrap(source, target.baseOffset());
                    for (int i = 0; i < index.entries(); i++) {
                        out.print("version: 0 producerId: " + index.producerId(i) + " firstOffset: " + index.firstOffset(i)
                                + " lastOffset: " + index.lastOffset(i) + " lastStableOffset: " + index.lastStableOffset(i) + "\n");
                    }
                }
                case SNAPSHOT -> snapshot(source);
                default -> err.print("Ignoring unknown file " + target.display() + "\n");
            }
        } catch (FormatException e) {
            err.print(e.getMessage() + "\n");
        }
    }

    private void snapshot(ByteSource source) {
        ProducerSnapshotReader snap = new ProducerSnapshotReader().wrap(source);
        snap.verifyCrc();
        for (int i = 0; i < snap.count(); i++) {
            long txnFirst = snap.currentTxnFirstOffset(i);
            line.setLength(0);
            line.append("producerId: ").append(snap.producerId(i))
                    .append(" producerEpoch: ").append(snap.epoch(i))
                    .append(" coordinatorEpoch: ").append(snap.coordinatorEpoch(i))
                    .append(" currentTxnFirstOffset: ").append(txnFirst >= 0 ? "OptionalLong[" + txnFirst + "]" : "OptionalLong.empty")
                    .append(" lastTimestamp: ").append(snap.timestamp(i));
            if (snap.lastOffset(i) >= 0) {
                int lastSeq = snap.lastSequence(i);
                int delta = snap.offsetDelta(i);
                int firstSeq = lastSeq < delta ? Integer.MAX_VALUE - (delta - lastSeq) + 1 : lastSeq - delta;
                line.append(" firstSequence: ").append(firstSeq)
                        .append(" lastSequence: ").append(lastSeq)
                        .append(" lastOffset: ").append(snap.lastOffset(i))
                        .append(" offsetDelta: ").append(delta)
                        .append(" timestamp: ").append(snap.timestamp(i));
            }
            out.print(line.append('\n'));
        }
    }

    @Override
    public void endFile(Target target, Tail tail, long validBytes, long fileSize, String error) {
        if (error != null) {
            err.print(error + "\n");
            return;
        }
        long trailing = fileSize - validBytes;
        if (trailing > 0) {
            out.print("Found " + trailing + " invalid bytes at the end of " + target.file().name() + "\n");
        }
    }

    @Override
    public void flush() {
        nonConsecutive.forEach((file, pairs) -> {
            err.print("Non-consecutive offsets in " + file + "\n");
            pairs.forEach((a, b) -> err.print("  " + a + " is followed by " + b + "\n"));
        });
        nonConsecutive.clear();
        out.flush();
        err.flush();
    }
}
