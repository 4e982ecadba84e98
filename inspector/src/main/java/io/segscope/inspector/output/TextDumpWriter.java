package io.segscope.inspector.output;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.error.Violation;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.json.MetadataJson;
import io.segscope.format.json.PluginJson;
import io.segscope.format.record.Batch;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.TransactionOutcome;

import java.io.PrintWriter;

/**
 * segscope's own readable dump: a header line per file, one line per batch starting with its
 * byte position, and each record indented below it. Strings are shown JSON-quoted so that commas,
 * quotes and newlines in group ids or metadata cannot make a line ambiguous; times are ISO-8601 UTC.
 */
public final class TextDumpWriter implements DumpWriter {
    private final PrintWriter out;
    private final PrintWriter err;
    private final ByteFormat keyFormat;
    private final ByteFormat valueFormat;
    private final StringBuilder line = new StringBuilder(256);
    private final boolean quietWhenEmpty;
    private boolean headerShown;
    private long batches;
    private long records;

    /**
     * @param quietWhenEmpty print nothing for a file none of whose batches is shown (when filters
     *     look inside records, files without a match are left out)
     */
    public TextDumpWriter(PrintWriter out, PrintWriter err, ByteFormat keyFormat, ByteFormat valueFormat,
                          boolean quietWhenEmpty) {
        this.quietWhenEmpty = quietWhenEmpty;
        this.out = out;
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
        line.setLength(0);
        line.append("== ").append(target.path());
        target.partition().ifPresent(p -> line.append("  topic ").append(quote(p.topic())).append(" partition ").append(p.partition()));
        out.print(line.append('\n'));
    }

    @Override
    public void batch(LogFile target, Batch b, TransactionOutcome transaction) {
        if (!headerShown) {
            header(target);
        }
        batches++;
        line.setLength(0);
        line.append('@').append(b.position()).append(' ');
        if (b.magic() >= 2) {
            line.append("offsets ").append(b.baseOffset()).append("..").append(b.lastOffset())
                    .append(" count ").append(b.countOrMinusOne());
        } else {
            line.append("offset ").append(b.lastOffset());
        }
        line.append(" magic ").append(b.magic())
                .append(' ').append(b.compression() == null ? "codec?" : b.compression().kafkaName)
                .append(" size ").append(b.sizeInBytes())
                .append(' ').append(b.timestampType().kafkaName).append(' ').append(Times.iso(b.maxTimestamp()));
        if (b.magic() >= 2) {
            if (b.producerId() >= 0) {
                line.append(" producer ").append(b.producerId()).append('/').append(b.producerEpoch())
                        .append(" seq ").append(b.baseSequence()).append("..").append(b.lastSequence());
            }
            line.append(" leaderEpoch ").append(b.partitionLeaderEpoch());
            if (b.isTransactional()) {
                line.append(" transactional");
                if (transaction != null) {
                    line.append(' ').append(transaction.label);
                }
            }
            if (b.isControl()) {
                line.append(" control");
            }
            if (b.hasDeleteHorizon()) {
                line.append(" deleteHorizon ").append(Times.iso(b.deleteHorizonMs()));
            }
        }
        line.append(String.format(" crc 0x%08x", b.storedCrc())).append(b.isValid() ? " valid" : " CRC-MISMATCH");
        out.print(line.append('\n'));
    }

    @Override
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        records++;
        line.setLength(0);
        line.append("  ").append(r.offset()).append(' ').append(Times.iso(r.timestamp()));
        if (b.producerId() >= 0 && r.sequence() >= 0) {
            line.append(" seq ").append(r.sequence());
        }
        if (content instanceof RecordContent.RemoteLogMetadata rm) {
            content = new RecordContent.Metadata(rm.result());
        }
        if (content instanceof RecordContent.Control c) {
            line.append(" control ").append(c.type() == io.segscope.format.record.ControlRecord.Type.UNKNOWN
                    ? "type " + c.typeId() : c.type().name());
            if (c.coordinatorEpoch() >= 0) {
                line.append(" coordinatorEpoch ").append(c.coordinatorEpoch());
            }
            if (c.value() instanceof ControlValue.Message m) {
                line.append(' ').append(MetadataJson.controlDataText(m));
            }
            String error = c.error() != null ? c.error() : c.valueError();
            if (error != null) {
                line.append(" ERROR ").append(Violation.INVALID_CONTROL_RECORD.kind()).append(": ").append(error);
            }
        } else if (content instanceof RecordContent.Metadata m) {
            if (m.result() instanceof MetadataDecoded d) {
                line.append(' ').append(d.typeName()).append(" v").append(d.version()).append(' ')
                        .append(MetadataJson.dataText(d));
            } else {
                MetadataUnknown u = (MetadataUnknown) m.result();
                line.append(" UNKNOWN ").append(u.reason().violation().kind()).append(": ").append(u.kafkaMessage());
            }
        } else if (content instanceof RecordContent.Coordinator c) {
            if (c.result() instanceof Decoded d) {
                line.append(' ').append(d.schema().name()).append(" key ").append(CoordinatorJson.keyDataText(d));
                if (d.isTombstone()) {
                    line.append(" value null (tombstone)");
                } else {
                    line.append(" value v").append(d.valueVersion()).append(' ').append(CoordinatorJson.valueDataText(d));
                }
            } else {
                Unknown u = (Unknown) c.result();
                line.append(" UNKNOWN ").append(u.reason().violation().kind())
                        .append(" type ").append(u.recordType());
                if (u.valueVersion() >= 0) {
                    line.append(" version ").append(u.valueVersion());
                }
                if (u.decodedKey() != null) {
                    line.append(" key ").append(CoordinatorJson.structText(u.decodedKey()));
                }
                line.append(": ").append(u.kafkaMessage());
            }
        } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
            line.append(" decoder ").append(quote(p.decoder()))
                    .append(" key ").append(r.hasKey() ? PluginJson.text(p.key()) : "null")
                    .append(" value ").append(r.hasValue() ? PluginJson.text(p.value()) : "null");
        } else {
            if (content instanceof RecordContent.Plugin p) {
                line.append(" decoder ").append(quote(p.decoder())).append(" ERROR ").append(p.error());
            }
            line.append(" key ").append(render(keyFormat, r, r.keyOffset(), r.keyLength()));
            line.append(" value ").append(render(valueFormat, r, r.valueOffset(), r.valueLength()));
        }
        if (r.headerCount() > 0) {
            line.append(" headers {");
            HeaderIterator h = r.headers();
            boolean first = true;
            while (h.next()) {
                if (!first) {
                    line.append(", ");
                }
                first = false;
                line.append(quote(ByteFormat.kafkaUtf8(h.buffer(), h.keyOffset(), h.keyLength()))).append(": ");
                line.append(h.valueLength() < 0 ? "null" : renderBytes(valueFormat, h.buffer(), h.valueOffset(), h.valueLength()));
            }
            line.append('}');
        }
        if (!r.isValid()) {
            line.append(" CRC-MISMATCH");
        }
        out.print(line.append('\n'));
    }

    private static String render(ByteFormat f, LogRecord r, int offset, int length) {
        return length < 0 ? "null" : renderBytes(f, r.buffer(), offset, length);
    }

    private static String renderBytes(ByteFormat f, java.nio.ByteBuffer buf, int offset, int length) {
        ByteFormat.Rendered rendered = f.render(buf, offset, length);
        return rendered.encoding().equals("utf8") ? quote(rendered.text()) : rendered.encoding() + ":" + rendered.text();
    }

    static String quote(String s) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }

    @Override
    public PrintWriter err() {
        return err;
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
        line.setLength(0);
        line.append("-- ").append(batches).append(" batches, ").append(records).append(" records shown");
        if (error != null) {
            line.append("; stopped: ").append(error);
        } else if (tail != null && !tail.isClean()) {
            line.append("; ").append(tail.kind() == Tail.Kind.ZERO_FILL ? "zero-filled" : "partial").append(" tail of ")
                    .append(tail.tailBytes()).append(" bytes at position ").append(tail.validBytes());
        }
        out.print(line.append('\n'));
        if (error != null) {
            err.print(error + "\n");
        }
    }

    /** Index and snapshot entries, one line each, times in ISO-8601 UTC. */
    @Override
    public void sideFile(LogFile target) {
        header(target);
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    out.print("  offset " + offset + " position " + position + "\n");
                }

                @Override
                public void emptyIndex() {
                    out.print("  (no entries)\n");
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    out.print("  " + Times.iso(timestamp) + " (" + timestamp + ") offset " + offset + "\n");
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    out.print("  aborted producer " + producerId + " offsets " + firstOffset + ".." + lastOffset
                            + " lastStableOffset " + lastStableOffset + "\n");
                }

                @Override
                public void snapshotEntry(io.segscope.format.state.ProducerSnapshotReader s, int i) {
                    out.print("  producer " + s.producerId(i) + "/" + s.epoch(i) + " lastSequence " + s.lastSequence(i)
                            + " lastOffset " + s.lastOffset(i) + " offsetDelta " + s.offsetDelta(i) + " time "
                            + Times.iso(s.timestamp(i)) + " coordinatorEpoch " + s.coordinatorEpoch(i)
                            + " currentTxnFirstOffset " + s.currentTxnFirstOffset(i) + "\n");
                }
            });
            if (!known) {
                err.print(target.path() + ": not a segment or side file, skipped\n");
            }
        } catch (io.segscope.format.error.FormatException e) {
            err.print(e.getMessage() + "\n");
        }
    }

    @Override
    public void flush() {
        out.flush();
        err.flush();
    }
}
