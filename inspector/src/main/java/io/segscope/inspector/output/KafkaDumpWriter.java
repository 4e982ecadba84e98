package io.segscope.inspector.output;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.json.CoordinatorStream;
import io.segscope.format.json.JsonOut;
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

import java.io.OutputStream;
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
public final class KafkaDumpWriter extends ByteDumpWriter {
    // pieces of the lines, encoded once
    private static final byte[] L_BASE_OFFSET = JsonOut.utf8("baseOffset: ");
    private static final byte[] L_LAST_OFFSET = JsonOut.utf8(" lastOffset: ");
    private static final byte[] L_COUNT = JsonOut.utf8(" count: ");
    private static final byte[] L_BASE_SEQUENCE = JsonOut.utf8(" baseSequence: ");
    private static final byte[] L_LAST_SEQUENCE = JsonOut.utf8(" lastSequence: ");
    private static final byte[] L_PRODUCER_ID = JsonOut.utf8(" producerId: ");
    private static final byte[] L_PRODUCER_EPOCH = JsonOut.utf8(" producerEpoch: ");
    private static final byte[] L_PARTITION_LEADER_EPOCH = JsonOut.utf8(" partitionLeaderEpoch: ");
    private static final byte[] L_IS_TRANSACTIONAL = JsonOut.utf8(" isTransactional: ");
    private static final byte[] L_IS_CONTROL = JsonOut.utf8(" isControl: ");
    private static final byte[] L_DELETE_HORIZON_MS = JsonOut.utf8(" deleteHorizonMs: ");
    private static final byte[] L_OPTIONAL_LONG = JsonOut.utf8("OptionalLong[");
    private static final byte[] L_OPTIONAL_LONG_EMPTY = JsonOut.utf8("OptionalLong.empty");
    private static final byte[] L_OFFSET = JsonOut.utf8("offset: ");
    private static final byte[] L_POSITION = JsonOut.utf8(" position: ");
    private static final byte[] L_PUNCT = JsonOut.utf8(": ");
    private static final byte[] L_SIZE = JsonOut.utf8(" size: ");
    private static final byte[] L_MAGIC = JsonOut.utf8(" magic: ");
    private static final byte[] L_COMPRESSCODEC = JsonOut.utf8(" compresscodec: ");
    private static final byte[] L_CRC = JsonOut.utf8(" crc: ");
    private static final byte[] L_ISVALID = JsonOut.utf8(" isvalid: ");
    private static final byte[] L_OFFSET_2 = JsonOut.utf8("| offset: ");
    private static final byte[] L_KEY_SIZE = JsonOut.utf8(" keySize: ");
    private static final byte[] L_VALUE_SIZE = JsonOut.utf8(" valueSize: ");
    private static final byte[] L_SEQUENCE = JsonOut.utf8(" sequence: ");
    private static final byte[] L_HEADER_KEYS = JsonOut.utf8(" headerKeys: [");
    private static final byte[] L_IS_VALID = JsonOut.utf8(" isValid: ");
    private static final byte[] L_KEY = JsonOut.utf8(" key: ");
    private static final byte[] L_PAYLOAD = JsonOut.utf8(" payload: ");
    private static final byte[] L_KEY_TYPE = JsonOut.utf8(" key: {\"type\":\"");
    private static final byte[] L_DATA = JsonOut.utf8("\",\"data\":");
    private static final byte[] L_PAYLOAD_2 = JsonOut.utf8("} payload: ");
    private static final byte[] L_VERSION = JsonOut.utf8("{\"version\":\"");
    private final PrintWriter err;
    private final boolean printData;
    private final boolean checkOffsets;
    private final Map<String, Map<Long, Long>> nonConsecutive = new LinkedHashMap<>();
    private long lastOffset;
    private final CoordinatorStream stream = new CoordinatorStream();
    /** In a piece ({@link #beginPiece()}): the first record's file and offset, and whether one was seen. */
    private String pieceFirstFile;
    private long pieceFirstOffset;
    private boolean pieceStarted;
    private boolean inPiece;

    /**
     * @param checkOffsets whether to report non-consecutive offsets as Kafka's tool does; off when
     *     filters leave records out (the gaps would be the filter's, not the log's)
     */
    public KafkaDumpWriter(OutputStream out, PrintWriter err, boolean printData, boolean checkOffsets) {
        super(out, err);
        this.err = err;
        this.printData = printData;
        this.checkOffsets = checkOffsets;
    }

    private void line(String text) {
        o.raw(text).raw('\n');
        lineDone();
    }

    @Override
    public void beginFile(LogFile target) {
        line("Dumping " + target.path());
        lastOffset = -1;
        String name = target.file().name();
        if (name.endsWith(".log")) {
            line("Log starting offset: " + Long.parseLong(name.split("\\.")[0]));
        } else if (target.kind() == FileKind.BOOTSTRAP_CHECKPOINT) {
            line("KRaft bootstrap snapshot");
        } else if (target.kind() == FileKind.KRAFT_SNAPSHOT) {
            line("Snapshot end offset: " + target.baseOffset() + ", epoch: " + target.snapshotEpoch());
        }
    }

    @Override
    public void batch(LogFile target, Batch b, io.segscope.format.walk.TransactionOutcome transaction) {
        if (b.magic() >= 2) {
            o.raw(L_BASE_OFFSET).raw(b.baseOffset())
                    .raw(L_LAST_OFFSET).raw(b.lastOffset())
                    .raw(L_COUNT).raw(b.countOrMinusOne())
                    .raw(L_BASE_SEQUENCE).raw(b.baseSequence())
                    .raw(L_LAST_SEQUENCE).raw(b.lastSequence())
                    .raw(L_PRODUCER_ID).raw(b.producerId())
                    .raw(L_PRODUCER_EPOCH).raw(b.producerEpoch())
                    .raw(L_PARTITION_LEADER_EPOCH).raw(b.partitionLeaderEpoch())
                    .raw(L_IS_TRANSACTIONAL).raw(b.isTransactional())
                    .raw(L_IS_CONTROL).raw(b.isControl())
                    .raw(L_DELETE_HORIZON_MS);
            if (b.hasDeleteHorizon()) {
                o.raw(L_OPTIONAL_LONG).raw(b.deleteHorizonMs()).raw(']');
            } else {
                o.raw(L_OPTIONAL_LONG_EMPTY);
            }
        } else {
            o.raw(L_OFFSET).raw(b.lastOffset());
        }
        o.raw(L_POSITION).raw(b.position())
                .raw(' ').raw(b.timestampType().kafkaName).raw(L_PUNCT).raw(b.maxTimestamp())
                .raw(L_SIZE).raw(b.sizeInBytes())
                .raw(L_MAGIC).raw(b.magic())
                .raw(L_COMPRESSCODEC).raw(b.compression() == null ? "unknown" : b.compression().kafkaName)
                .raw(L_CRC).raw(b.storedCrc())
                .raw(L_ISVALID).raw(b.isValid())
                .raw('\n');
        lineDone();
    }

    @Override
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        if (inPiece && !pieceStarted) {
            pieceStarted = true;
            pieceFirstFile = target.path();
            pieceFirstOffset = r.offset();
        } else if (checkOffsets && r.offset() != lastOffset + 1) {
            nonConsecutive.computeIfAbsent(target.path(), k -> new TreeMap<>()).put(lastOffset, r.offset());
        }
        lastOffset = r.offset();
        o.raw(L_OFFSET_2).raw(r.offset()).raw(' ').raw(b.timestampType().kafkaName).raw(L_PUNCT)
                .raw(r.timestamp())
                .raw(L_KEY_SIZE).raw(r.keyLength())
                .raw(L_VALUE_SIZE).raw(r.valueLength());
        if (b.magic() >= 2) {
            o.raw(L_SEQUENCE).raw(r.sequence()).raw(L_HEADER_KEYS);
            HeaderIterator h = r.headers();
            boolean first = true;
            while (h.next()) {
                if (!first) {
                    o.raw(',');
                }
                first = false;
                o.raw(ByteFormat.kafkaUtf8(h.buffer(), h.keyOffset(), h.keyLength()));
            }
            o.raw(']');
        } else {
            o.raw(L_IS_VALID).raw(r.isValid()).raw(L_CRC).raw(r.checksumOrMinusOne());
        }
        if (content instanceof RecordContent.Coordinator c) {
            if (!fast(c)) {
                CoordinatorResult result = c.result();
                o.raw(L_KEY);
                KafkaDumpText.writeKey(o, result, r.offset());
                KafkaDumpText.writePayload(o, result);
            }
        } else if (content instanceof RecordContent.Control c) {
            appendControl(c);
        } else if (content instanceof RecordContent.Metadata m) {
            o.raw(L_PAYLOAD).raw(KafkaDumpText.metadataPayloadText(m.result(), r.offset()));
        } else if (content instanceof RecordContent.RemoteLogMetadata m) {
            o.raw(L_PAYLOAD).raw(RemoteLogMetadataText.payloadText(m.result(), r.offset()));
        } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
            // as DumpLogSegments' --key-decoder-class/--value-decoder-class print: key then payload, when present
            if (r.hasKey()) {
                o.raw(L_KEY).raw(PluginJson.plainText(p.key()));
            }
            if (r.hasValue()) {
                o.raw(L_PAYLOAD).raw(PluginJson.plainText(p.value()));
            }
        } else if (printData) {
            if (r.hasKey()) {
                o.raw(L_KEY).raw(ByteFormat.kafkaUtf8(r.buffer(), r.keyOffset(), r.keyLength()));
            }
            if (r.hasValue()) {
                o.raw(L_PAYLOAD).raw(ByteFormat.kafkaUtf8(r.buffer(), r.valueOffset(), r.valueLength()));
            }
        }
        o.raw('\n');
        lineDone();
    }

    /** The key and payload straight from the record's bytes, when {@link CoordinatorStream} takes the record. */
    private boolean fast(RecordContent.Coordinator c) {
        if (!openFast(stream, c) || !stream.schema().inKafka440()) {
            return false;
        }
        long mark = o.mark();
        o.raw(L_KEY_TYPE).raw(stream.schema().type()).raw(L_DATA);
        if (!stream.writeKeyData(o)) {
            o.rewind(mark);
            return false;
        }
        o.raw(L_PAYLOAD_2);
        if (stream.isTombstone()) {
            o.raw(io.segscope.format.json.CoordinatorJson.DELETE);
            return true;
        }
        o.raw(L_VERSION).raw(stream.valueVersion()).raw(L_DATA);
        if (!stream.writeValueData(o)) {
            o.rewind(mark);
            return false;
        }
        o.raw('}');
        return true;
    }

    private void appendControl(RecordContent.Control c) {
        String text = c.value() == null ? null : KafkaDumpText.controlText(c.value());
        if (text != null) {
            o.raw(text);
        } else {
            // Kafka's tool throws here and stops the whole run; segscope says why and goes on
            o.raw(" controlError: ").raw(c.error() != null ? c.error() : c.valueError());
        }
    }

    /** Index, time index, transaction index and producer snapshot files, as DumpLogSegments prints them. */
    @Override
    public void sideFile(LogFile target) {
        line("Dumping " + target.path());
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    o.raw("offset: ").raw(offset).raw(" position: ").raw(position).raw('\n');
                    lineDone();
                }

                @Override
                public void emptyIndex() {
                    // Kafka prints slot 0 of a never-written preallocated index as an entry: a documented deviation
                    line(target.path() + " is empty.");
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    o.raw("timestamp: ").raw(timestamp).raw(" offset: ").raw(offset).raw('\n');
                    lineDone();
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    o.raw("version: 0 producerId: ").raw(producerId).raw(" firstOffset: ").raw(firstOffset)
                            .raw(" lastOffset: ").raw(lastOffset).raw(" lastStableOffset: ").raw(lastStableOffset).raw('\n');
                    lineDone();
                }

                @Override
                public void snapshotEntry(ProducerSnapshotReader snap, int i) {
                    long txnFirst = snap.currentTxnFirstOffset(i);
                    o.raw("producerId: ").raw(snap.producerId(i))
                            .raw(" producerEpoch: ").raw(snap.epoch(i))
                            .raw(" coordinatorEpoch: ").raw(snap.coordinatorEpoch(i))
                            .raw(" currentTxnFirstOffset: ");
                    if (txnFirst >= 0) {
                        o.raw("OptionalLong[").raw(txnFirst).raw(']');
                    } else {
                        o.raw("OptionalLong.empty");
                    }
                    o.raw(" lastTimestamp: ").raw(snap.timestamp(i));
                    if (snap.lastOffset(i) >= 0) {
                        o.raw(" firstSequence: ").raw(Sequences.decrement(snap.lastSequence(i), snap.offsetDelta(i)))
                                .raw(" lastSequence: ").raw(snap.lastSequence(i))
                                .raw(" lastOffset: ").raw(snap.lastOffset(i))
                                .raw(" offsetDelta: ").raw(snap.offsetDelta(i))
                                .raw(" timestamp: ").raw(snap.timestamp(i));
                    }
                    o.raw('\n');
                    lineDone();
                }
            });
            if (!known) {
                err.print("Ignoring unknown file " + target.path() + "\n");
            }
        } catch (FormatException e) {
            err.print(e.getMessage() + "\n");
            sideFileDamaged = true;
        }
    }

    @Override
    public void endFile(LogFile target, Tail tail, long validBytes, long fileSize, String error) {
        if (error != null) {
            err.print(error + "\n");
            return;
        }
        long trailing = fileSize - validBytes;
        if (trailing > 0) {
            line("Found " + trailing + " invalid bytes at the end of " + target.file().name());
        }
    }

    /** What a piece carries over: its first record (checked against the one before it) and its gaps. */
    private record Carry(String firstFile, long firstOffset, long lastOffset, Map<String, Map<Long, Long>> gaps) {
    }

    @Override
    ByteDumpWriter pieceWriter() {
        return new KafkaDumpWriter(null, err, printData, checkOffsets);
    }

    @Override
    void beginPiece() {
        inPiece = true;
        pieceStarted = false;
        nonConsecutive.clear();
    }

    @Override
    Object endPiece() {
        if (!pieceStarted) {
            return null;
        }
        Carry c = new Carry(pieceFirstFile, pieceFirstOffset, lastOffset, new LinkedHashMap<>(nonConsecutive));
        nonConsecutive.clear();
        return c;
    }

    @Override
    void applyPiece(Object change) {
        if (!(change instanceof Carry c)) {
            return;
        }
        if (checkOffsets && c.firstOffset() != lastOffset + 1) {
            nonConsecutive.computeIfAbsent(c.firstFile(), k -> new TreeMap<>()).put(lastOffset, c.firstOffset());
        }
        c.gaps().forEach((file, pairs) -> nonConsecutive.computeIfAbsent(file, k -> new TreeMap<>()).putAll(pairs));
        lastOffset = c.lastOffset();
    }

    @Override
    public void flush() {
        super.flush();
        nonConsecutive.forEach((file, pairs) -> {
            err.print("Non-consecutive offsets in " + file + "\n");
            pairs.forEach((a, b) -> err.print("  " + a + " is followed by " + b + "\n"));
        });
        nonConsecutive.clear();
        err.flush();
    }
}
