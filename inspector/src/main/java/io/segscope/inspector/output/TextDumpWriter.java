package io.segscope.inspector.output;

import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.error.Violation;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.json.CoordinatorStream;
import io.segscope.format.json.JsonOut;
import io.segscope.format.json.MetadataJson;
import io.segscope.format.json.PluginJson;
import io.segscope.format.record.Batch;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.TransactionOutcome;

import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * segscope's own readable dump: a header line per file, one line per batch starting with its
 * byte position, and each record indented below it. Strings are shown JSON-quoted so that commas,
 * quotes and newlines in group ids or metadata cannot make a line ambiguous; times are ISO-8601 UTC.
 */
public final class TextDumpWriter extends ByteDumpWriter {
    // pieces of the lines, encoded once
    private static final byte[] L_OFFSETS = JsonOut.utf8("offsets ");
    private static final byte[] L_PUNCT = JsonOut.utf8("..");
    private static final byte[] L_COUNT = JsonOut.utf8(" count ");
    private static final byte[] L_OFFSET = JsonOut.utf8("offset ");
    private static final byte[] L_MAGIC = JsonOut.utf8(" magic ");
    private static final byte[] L_SIZE = JsonOut.utf8(" size ");
    private static final byte[] L_PRODUCER = JsonOut.utf8(" producer ");
    private static final byte[] L_SEQ = JsonOut.utf8(" seq ");
    private static final byte[] L_LEADER_EPOCH = JsonOut.utf8(" leaderEpoch ");
    private static final byte[] L_TRANSACTIONAL = JsonOut.utf8(" transactional");
    private static final byte[] L_CONTROL = JsonOut.utf8(" control");
    private static final byte[] L_DELETE_HORIZON = JsonOut.utf8(" deleteHorizon ");
    private static final byte[] L_CRC_0X = JsonOut.utf8(" crc 0x");
    private static final byte[] L_PUNCT_2 = JsonOut.utf8("  ");
    private static final byte[] L_KEY = JsonOut.utf8(" key ");
    private static final byte[] L_VALUE_NULL_TOMBSTONE = JsonOut.utf8(" value null (tombstone)");
    private static final byte[] L_VALUE_V = JsonOut.utf8(" value v");
    private static final byte[] L_UNKNOWN = JsonOut.utf8(" UNKNOWN ");
    private static final byte[] L_TYPE = JsonOut.utf8(" type ");
    private static final byte[] L_VERSION = JsonOut.utf8(" version ");
    private static final byte[] L_PUNCT_3 = JsonOut.utf8(": ");
    private static final byte[] L_CONTROL_2 = JsonOut.utf8(" control ");
    private static final byte[] L_COORDINATOR_EPOCH = JsonOut.utf8(" coordinatorEpoch ");
    private static final byte[] L_ERROR = JsonOut.utf8(" ERROR ");
    private static final byte[] L_V = JsonOut.utf8(" v");
    private static final byte[] L_DECODER = JsonOut.utf8(" decoder ");
    private static final byte[] L_VALUE = JsonOut.utf8(" value ");
    private static final byte[] L_HEADERS = JsonOut.utf8(" headers {");
    private static final byte[] L_PUNCT_4 = JsonOut.utf8(", ");
    private static final byte[] L_CRC_MISMATCH = JsonOut.utf8(" CRC-MISMATCH");
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final PrintWriter err;
    private final ByteFormat keyFormat;
    private final ByteFormat valueFormat;
    private final boolean quietWhenEmpty;
    private final CoordinatorStream stream = new CoordinatorStream();
    private final Times.Last recordTime = new Times.Last();
    private boolean headerShown;
    private long batches;
    private long records;

    /**
     * @param quietWhenEmpty print nothing for a file none of whose batches is shown (when filters
     *     look inside records, files without a match are left out)
     */
    public TextDumpWriter(OutputStream out, PrintWriter err, ByteFormat keyFormat, ByteFormat valueFormat,
                          boolean quietWhenEmpty) {
        super(out, err);
        this.quietWhenEmpty = quietWhenEmpty;
        this.err = err;
        this.keyFormat = keyFormat;
        this.valueFormat = valueFormat;
    }

    @Override
    public void beginFile(LogFile target) {
        batches = 0;
        records = 0;
        headerShown = false;
        if (!quietWhenEmpty) {
            header(target);
        }
    }

    private void header(LogFile target) {
        headerShown = true;
        o.raw("== ").raw(target.path());
        target.partition().ifPresent(p -> o.raw("  topic ").quoted(p.topic()).raw(" partition ").raw(p.partition()));
        o.raw('\n');
        lineDone();
    }

    @Override
    public void batch(LogFile target, Batch b, TransactionOutcome transaction) {
        if (!headerShown) {
            header(target);
        }
        batches++;
        o.raw('@').raw(b.position()).raw(' ');
        if (b.magic() >= 2) {
            o.raw(L_OFFSETS).raw(b.baseOffset()).raw(L_PUNCT).raw(b.lastOffset())
                    .raw(L_COUNT).raw(b.countOrMinusOne());
        } else {
            o.raw(L_OFFSET).raw(b.lastOffset());
        }
        o.raw(L_MAGIC).raw(b.magic())
                .raw(' ').raw(b.compression() == null ? "codec?" : b.compression().kafkaName)
                .raw(L_SIZE).raw(b.sizeInBytes())
                .raw(' ').raw(b.timestampType().kafkaName).raw(' ');
        Times.iso(o, b.maxTimestamp());
        if (b.magic() >= 2) {
            if (b.producerId() >= 0) {
                o.raw(L_PRODUCER).raw(b.producerId()).raw('/').raw(b.producerEpoch())
                        .raw(L_SEQ).raw(b.baseSequence()).raw(L_PUNCT).raw(b.lastSequence());
            }
            o.raw(L_LEADER_EPOCH).raw(b.partitionLeaderEpoch());
            if (b.isTransactional()) {
                o.raw(L_TRANSACTIONAL);
                if (transaction != null) {
                    o.raw(' ').raw(transaction.label);
                }
            }
            if (b.isControl()) {
                o.raw(L_CONTROL);
            }
            if (b.hasDeleteHorizon()) {
                o.raw(L_DELETE_HORIZON);
                Times.iso(o, b.deleteHorizonMs());
            }
        }
        o.raw(L_CRC_0X);
        long crc = b.storedCrc();
        for (int shift = 28; shift >= 0; shift -= 4) {
            o.raw((char) HEX[(int) (crc >>> shift) & 0xF]);
        }
        o.raw(b.isValid() ? " valid" : " CRC-MISMATCH").raw('\n');
        lineDone();
    }

    @Override
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        records++;
        o.raw(L_PUNCT_2).raw(r.offset()).raw(' ');
        recordTime.iso(o, r.timestamp());
        if (b.producerId() >= 0 && r.sequence() >= 0) {
            o.raw(L_SEQ).raw(r.sequence());
        }
        if (content instanceof RecordContent.RemoteLogMetadata rm) {
            content = new RecordContent.Metadata(rm.result());
        }
        if (content instanceof RecordContent.Coordinator c && fast(c)) {
            // written from the record's bytes
        } else if (content instanceof RecordContent.Coordinator c) {
            if (c.result() instanceof Decoded d) {
                o.raw(' ').raw(d.schema().name()).raw(L_KEY);
                CoordinatorJson.writeStruct(o, d.key());
                if (d.isTombstone()) {
                    o.raw(L_VALUE_NULL_TOMBSTONE);
                } else {
                    o.raw(L_VALUE_V).raw(d.valueVersion()).raw(' ');
                    CoordinatorJson.writeStruct(o, d.value());
                }
            } else {
                Unknown u = (Unknown) c.result();
                o.raw(L_UNKNOWN).raw(u.reason().violation().kind())
                        .raw(L_TYPE).raw(u.recordType());
                if (u.valueVersion() >= 0) {
                    o.raw(L_VERSION).raw(u.valueVersion());
                }
                if (u.decodedKey() != null) {
                    o.raw(L_KEY);
                    CoordinatorJson.writeStruct(o, u.decodedKey());
                }
                o.raw(L_PUNCT_3).raw(u.kafkaMessage());
            }
        } else if (content instanceof RecordContent.Control c) {
            o.raw(L_CONTROL_2).raw(c.type() == io.segscope.format.record.ControlRecord.Type.UNKNOWN
                    ? "type " + c.typeId() : c.type().name());
            if (c.coordinatorEpoch() >= 0) {
                o.raw(L_COORDINATOR_EPOCH).raw(c.coordinatorEpoch());
            }
            if (c.value() instanceof ControlValue.Message m) {
                o.raw(' ');
                MetadataJson.writeControlData(o, m);
            }
            String error = c.error() != null ? c.error() : c.valueError();
            if (error != null) {
                o.raw(L_ERROR).raw(Violation.INVALID_CONTROL_RECORD.kind()).raw(L_PUNCT_3).raw(error);
            }
        } else if (content instanceof RecordContent.Metadata m) {
            if (m.result() instanceof MetadataDecoded d) {
                o.raw(' ').raw(d.typeName()).raw(L_V).raw(d.version()).raw(' ');
                MetadataJson.writeStruct(o, d.value(), d.value().version());
            } else {
                MetadataUnknown u = (MetadataUnknown) m.result();
                o.raw(L_UNKNOWN).raw(u.reason().violation().kind()).raw(L_PUNCT_3).raw(u.kafkaMessage());
            }
        } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
            o.raw(L_DECODER).quoted(p.decoder())
                    .raw(L_KEY).raw(r.hasKey() ? PluginJson.text(p.key()) : "null")
                    .raw(L_VALUE).raw(r.hasValue() ? PluginJson.text(p.value()) : "null");
        } else {
            if (content instanceof RecordContent.Plugin p) {
                o.raw(L_DECODER).quoted(p.decoder()).raw(L_ERROR).raw(p.error());
            }
            o.raw(L_KEY).raw(render(keyFormat, r, r.keyOffset(), r.keyLength()));
            o.raw(L_VALUE).raw(render(valueFormat, r, r.valueOffset(), r.valueLength()));
        }
        if (r.headerCount() > 0) {
            o.raw(L_HEADERS);
            HeaderIterator h = r.headers();
            boolean first = true;
            while (h.next()) {
                if (!first) {
                    o.raw(L_PUNCT_4);
                }
                first = false;
                o.quoted(ByteFormat.kafkaUtf8(h.buffer(), h.keyOffset(), h.keyLength())).raw(L_PUNCT_3);
                o.raw(h.valueLength() < 0 ? "null" : renderBytes(valueFormat, h.buffer(), h.valueOffset(), h.valueLength()));
            }
            o.raw('}');
        }
        if (!r.isValid()) {
            o.raw(L_CRC_MISMATCH);
        }
        o.raw('\n');
        lineDone();
    }

    /** Type, key and value straight from the record's bytes, when {@link CoordinatorStream} takes the record. */
    private boolean fast(RecordContent.Coordinator c) {
        if (!openFast(stream, c)) {
            return false;
        }
        long mark = o.mark();
        o.raw(' ').raw(stream.schema().name()).raw(L_KEY);
        if (!stream.writeKeyData(o)) {
            o.rewind(mark);
            return false;
        }
        if (stream.isTombstone()) {
            o.raw(L_VALUE_NULL_TOMBSTONE);
            return true;
        }
        o.raw(L_VALUE_V).raw(stream.valueVersion()).raw(' ');
        if (!stream.writeValueData(o)) {
            o.rewind(mark);
            return false;
        }
        return true;
    }

    private static String render(ByteFormat f, LogRecord r, int offset, int length) {
        return length < 0 ? "null" : renderBytes(f, r.buffer(), offset, length);
    }

    private static String renderBytes(ByteFormat f, java.nio.ByteBuffer buf, int offset, int length) {
        ByteFormat.Rendered rendered = f.render(buf, offset, length);
        return rendered.encoding().equals("utf8") ? quote(rendered.text()) : rendered.encoding() + ":" + rendered.text();
    }

    static String quote(String s) {
        return new JsonOut(s.length() + 16).quoted(s).toString();
    }

    @Override
    public void endFile(LogFile target, Tail tail, long validBytes, long fileSize, String error) {
        boolean clean = error == null && (tail == null || tail.isClean());
        if (!headerShown && clean) {
            return;
        }
        if (!headerShown) {
            header(target);
        }
        o.raw("-- ").raw(batches).raw(" batches, ").raw(records).raw(" records shown");
        if (error != null) {
            o.raw("; stopped: ").raw(error);
        } else if (tail != null && !tail.isClean()) {
            o.raw("; ").raw(tail.kind() == Tail.Kind.ZERO_FILL ? "zero-filled" : "partial").raw(" tail of ")
                    .raw(tail.tailBytes()).raw(" bytes at position ").raw(tail.validBytes());
        }
        o.raw('\n');
        lineDone();
        if (error != null) {
            err.print(error + "\n");
        }
    }

    @Override
    ByteDumpWriter pieceWriter() {
        return new TextDumpWriter(null, err, keyFormat, valueFormat, quietWhenEmpty);
    }

    /** With filters the file header waits for the first batch shown, which only the whole sequence knows. */
    @Override
    public boolean parallelizable() {
        return !quietWhenEmpty;
    }

    @Override
    void beginPiece() {
        headerShown = true;
        batches = 0;
        records = 0;
    }

    @Override
    Object endPiece() {
        return new long[]{batches, records};
    }

    @Override
    void applyPiece(Object change) {
        long[] counts = (long[]) change;
        batches += counts[0];
        records += counts[1];
    }

    /** Index and snapshot entries, one line each, times in ISO-8601 UTC. */
    @Override
    public void sideFile(LogFile target) {
        header(target);
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    o.raw("  offset ").raw(offset).raw(" position ").raw(position).raw('\n');
                    lineDone();
                }

                @Override
                public void emptyIndex() {
                    o.raw("  (no entries)\n");
                    lineDone();
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    o.raw("  ");
                    Times.iso(o, timestamp);
                    o.raw(" (").raw(timestamp).raw(") offset ").raw(offset).raw('\n');
                    lineDone();
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    o.raw("  aborted producer ").raw(producerId).raw(" offsets ").raw(firstOffset).raw("..").raw(lastOffset)
                            .raw(" lastStableOffset ").raw(lastStableOffset).raw('\n');
                    lineDone();
                }

                @Override
                public void snapshotEntry(io.segscope.format.state.ProducerSnapshotReader s, int i) {
                    o.raw("  producer ").raw(s.producerId(i)).raw('/').raw(s.epoch(i)).raw(" lastSequence ").raw(s.lastSequence(i))
                            .raw(" lastOffset ").raw(s.lastOffset(i)).raw(" offsetDelta ").raw(s.offsetDelta(i)).raw(" time ");
                    Times.iso(o, s.timestamp(i));
                    o.raw(" coordinatorEpoch ").raw(s.coordinatorEpoch(i))
                            .raw(" currentTxnFirstOffset ").raw(s.currentTxnFirstOffset(i)).raw('\n');
                    lineDone();
                }
            });
            if (!known) {
                err.print(target.path() + ": not a segment or side file, skipped\n");
            }
        } catch (io.segscope.format.error.FormatException e) {
            err.print(e.getMessage() + "\n");
            sideFileDamaged = true;
        }
    }
}
