package io.segscope.inspector.output;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.remote.RemoteLogMetadataText;
import io.segscope.format.json.PluginJson;
import io.segscope.format.record.Batch;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Sequences;
import io.segscope.format.record.Tail;
import io.segscope.format.error.FormatException;
import io.segscope.format.state.ProducerSnapshotReader;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.walk.RecordContent;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

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
    private final boolean checkOffsets;
    private final Map<String, Map<Long, Long>> nonConsecutive = new LinkedHashMap<>();
    private long lastOffset;
    private StringBuilder line = new StringBuilder(256);

    /**
     * @param checkOffsets whether to report non-consecutive offsets as Kafka's tool does; off when
     *     filters leave records out (the gaps would be the filter's, not the log's)
     */
    public KafkaDumpWriter(PrintWriter out, PrintWriter err, boolean printData, boolean checkOffsets) {
        this.out = out;
        this.err = err;
        this.printData = printData;
        this.checkOffsets = checkOffsets;
    }

    @Override
    public void beginFile(LogFile target) {
        out.print("Dumping " + target.path() + "\n");
        lastOffset = -1;
        String name = target.file().name();
        if (name.endsWith(".log")) {
            out.print("Log starting offset: " + Long.parseLong(name.split("\\.")[0]) + "\n");
        } else if (target.kind() == FileKind.BOOTSTRAP_CHECKPOINT) {
            out.print("KRaft bootstrap snapshot\n");
        } else if (target.kind() == FileKind.KRAFT_SNAPSHOT) {
            out.print("Snapshot end offset: " + target.baseOffset() + ", epoch: " + target.snapshotEpoch() + "\n");
        }
    }

    @Override
    public void batch(LogFile target, Batch b, io.segscope.format.walk.TransactionOutcome transaction) {
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
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        if (checkOffsets && r.offset() != lastOffset + 1) {
            nonConsecutive.computeIfAbsent(target.path(), k -> new TreeMap<>()).put(lastOffset, r.offset());
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
            line.append(" payload: ").append(KafkaDumpText.metadataPayloadText(m.result(), r.offset()));
        } else if (content instanceof RecordContent.RemoteLogMetadata m) {
            line.append(" payload: ").append(RemoteLogMetadataText.payloadText(m.result(), r.offset()));
        } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
            // as DumpLogSegments' --key-decoder-class/--value-decoder-class print: key then payload, when present
            if (r.hasKey()) {
                line.append(" key: ").append(PluginJson.plainText(p.key()));
            }
            if (r.hasValue()) {
                line.append(" payload: ").append(PluginJson.plainText(p.value()));
            }
        } else if (content instanceof RecordContent.Coordinator c) {
            CoordinatorResult result = c.result();
            line.append(" key: ").append(KafkaDumpText.keyText(result, r.offset()));
            String payload = KafkaDumpText.payloadText(result);
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
        String text = c.value() == null ? null : KafkaDumpText.controlText(c.value());
        if (text != null) {
            line.append(text);
        } else {
            // Kafka's tool throws here and stops the whole run; segscope says why and goes on
            line.append(" controlError: ").append(c.error() != null ? c.error() : c.valueError());
        }
    }

    /** Index, time index, transaction index and producer snapshot files, as DumpLogSegments prints them. */
    @Override
    public void sideFile(LogFile target) {
        out.print("Dumping " + target.path() + "\n");
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    out.print("offset: " + offset + " position: " + position + "\n");
                }

                @Override
                public void emptyIndex() {
                    // Kafka prints slot 0 of a never-written preallocated index as an entry: a documented deviation
                    out.print(target.path() + " is empty.\n");
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    out.print("timestamp: " + timestamp + " offset: " + offset + "\n");
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    out.print("version: 0 producerId: " + producerId + " firstOffset: " + firstOffset
                            + " lastOffset: " + lastOffset + " lastStableOffset: " + lastStableOffset + "\n");
                }

                @Override
                public void snapshotEntry(ProducerSnapshotReader snap, int i) {
                    long txnFirst = snap.currentTxnFirstOffset(i);
                    line.setLength(0);
                    line.append("producerId: ").append(snap.producerId(i))
                            .append(" producerEpoch: ").append(snap.epoch(i))
                            .append(" coordinatorEpoch: ").append(snap.coordinatorEpoch(i))
                            .append(" currentTxnFirstOffset: ").append(txnFirst >= 0 ? "OptionalLong[" + txnFirst + "]" : "OptionalLong.empty")
                            .append(" lastTimestamp: ").append(snap.timestamp(i));
                    if (snap.lastOffset(i) >= 0) {
                        line.append(" firstSequence: ").append(Sequences.decrement(snap.lastSequence(i), snap.offsetDelta(i)))
                                .append(" lastSequence: ").append(snap.lastSequence(i))
                                .append(" lastOffset: ").append(snap.lastOffset(i))
                                .append(" offsetDelta: ").append(snap.offsetDelta(i))
                                .append(" timestamp: ").append(snap.timestamp(i));
                    }
                    out.print(line.append('\n'));
                }
            });
            if (!known) {
                err.print("Ignoring unknown file " + target.path() + "\n");
            }
        } catch (FormatException e) {
            err.print(e.getMessage() + "\n");
        }
    }

    @Override
    public PrintWriter err() {
        return err;
    }

    @Override
    public void endFile(LogFile target, Tail tail, long validBytes, long fileSize, String error) {
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
