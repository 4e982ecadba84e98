package io.segscope.inspector.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.json.MetadataJson;
import io.segscope.format.json.PluginJson;
import io.segscope.format.record.Batch;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.walk.RecordContent;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Base64;

/**
 * One JSON object per record (the schema is in the README): the batch context, the record's
 * offset, timestamp and headers, and its key and value, decoded for coordinator topics with
 * Kafka's field names. Written with jackson-core's streaming generator, one object per line.
 */
public final class JsonlDumpWriter implements DumpWriter {
    private final PrintWriter err;
    private final JsonGenerator g;
    private final ByteFormat keyFormat;
    private final ByteFormat valueFormat;

    public JsonlDumpWriter(PrintWriter out, PrintWriter err, ByteFormat keyFormat, ByteFormat valueFormat) {
        this.err = err;
        this.keyFormat = keyFormat;
        this.valueFormat = valueFormat;
        try {
            this.g = new JsonFactory().createGenerator(out);
            g.setRootValueSeparator(null);
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void beginFile(LogFile target) {
    }

    @Override
    public void batch(LogFile target, Batch batch) {
    }

    @Override
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        try {
            g.writeStartObject();
            g.writeStringField("file", target.path());
            if (target.partition().isPresent()) {
                g.writeStringField("topic", target.partition().get().topic());
                g.writeNumberField("partition", target.partition().get().partition());
            }
            g.writeNumberField("position", b.position());
            g.writeNumberField("baseOffset", b.baseOffset());
            g.writeNumberField("lastOffset", b.lastOffset());
            g.writeNumberField("magic", b.magic());
            g.writeStringField("compression", b.compression() == null ? "unknown" : b.compression().kafkaName);
            g.writeNumberField("producerId", b.producerId());
            g.writeNumberField("producerEpoch", b.producerEpoch());
            g.writeBooleanField("isTransactional", b.isTransactional());
            g.writeBooleanField("isControl", b.isControl());
            g.writeNumberField("partitionLeaderEpoch", b.partitionLeaderEpoch());
            g.writeBooleanField("crcValid", b.isValid());
            g.writeNumberField("offset", r.offset());
            g.writeNumberField("timestamp", r.timestamp());
            g.writeStringField("time", Times.iso(r.timestamp()));
            g.writeStringField("timestampType", r.timestampType().kafkaName);
            g.writeNumberField("sequence", r.sequence());
            writeHeaders(r);
            if (content instanceof RecordContent.RemoteLogMetadata rm) {
                content = new RecordContent.Metadata(rm.result());
            }
            if (content instanceof RecordContent.Control c) {
                g.writeObjectFieldStart("control");
                if (c.type() == io.segscope.format.record.ControlRecord.Type.UNKNOWN) {
                    g.writeNumberField("type", c.typeId());
                } else {
                    g.writeStringField("type", c.type().name());
                }
                if (c.coordinatorEpoch() >= 0) {
                    g.writeNumberField("coordinatorEpoch", c.coordinatorEpoch());
                }
                if (c.value() instanceof ControlValue.Message m) {
                    g.writeNumberField("version", m.printVersion());
                    g.writeFieldName("data");
                    MetadataJson.writeControlData(g, m);
                }
                g.writeEndObject();
                String error = c.error() != null ? c.error() : c.valueError();
                if (error != null) {
                    writeError("invalid-control-record", error, r);
                }
            } else if (content instanceof RecordContent.Metadata m && m.result() instanceof MetadataDecoded d) {
                g.writeNullField("key");
                g.writeObjectFieldStart("value");
                g.writeStringField("type", d.typeName());
                g.writeNumberField("version", d.version());
                g.writeFieldName("data");
                MetadataJson.writeStruct(g, d.value(), d.value().version());
                g.writeEndObject();
            } else if (content instanceof RecordContent.Metadata m) {
                MetadataUnknown u = (MetadataUnknown) m.result();
                g.writeObjectFieldStart("error");
                g.writeStringField("reason", "invalid-metadata-record");
                g.writeStringField("message", u.kafkaMessage());
                g.writeEndObject();
                writeBytes("value", ByteFormat.BASE64, r, r.valueOffset(), r.valueLength());
            } else if (content instanceof RecordContent.Coordinator c && c.result() instanceof Decoded d) {
                g.writeObjectFieldStart("key");
                g.writeNumberField("type", d.recordType());
                g.writeStringField("name", d.schema().name());
                g.writeFieldName("data");
                CoordinatorJson.writeStruct(g, d.key());
                g.writeEndObject();
                if (d.isTombstone()) {
                    g.writeNullField("value");
                } else {
                    g.writeObjectFieldStart("value");
                    g.writeNumberField("version", d.valueVersion());
                    g.writeFieldName("data");
                    CoordinatorJson.writeStruct(g, d.value());
                    g.writeEndObject();
                    if (d.unknownTaggedFields() > 0) {
                        g.writeNumberField("unknownTaggedFields", d.unknownTaggedFields());
                    }
                }
            } else if (content instanceof RecordContent.Coordinator c) {
                Unknown u = (Unknown) c.result();
                g.writeObjectFieldStart("error");
                g.writeStringField("reason", u.reason().violation().kind());
                g.writeStringField("message", u.kafkaMessage());
                g.writeNumberField("recordType", u.recordType());
                if (u.valueVersion() >= 0) {
                    g.writeNumberField("valueVersion", u.valueVersion());
                }
                writeBase64("key", u.key());
                writeBase64("value", u.value());
                g.writeEndObject();
            } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
                g.writeStringField("decoder", p.decoder());
                g.writeFieldName("key");
                PluginJson.write(g, r.hasKey() ? p.key() : null);
                g.writeFieldName("value");
                PluginJson.write(g, r.hasValue() ? p.value() : null);
            } else {
                if (content instanceof RecordContent.Plugin p) {
                    g.writeObjectFieldStart("error");
                    g.writeStringField("reason", "decoder-failed");
                    g.writeStringField("decoder", p.decoder());
                    g.writeStringField("message", p.error());
                    g.writeEndObject();
                }
                writeBytes("key", keyFormat, r, r.keyOffset(), r.keyLength());
                writeBytes("value", valueFormat, r, r.valueOffset(), r.valueLength());
            }
            g.writeEndObject();
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeHeaders(LogRecord r) throws IOException {
        g.writeArrayFieldStart("headers");
        HeaderIterator h = r.headers();
        while (h.next()) {
            g.writeStartObject();
            g.writeStringField("key", ByteFormat.kafkaUtf8(h.buffer(), h.keyOffset(), h.keyLength()));
            if (h.valueLength() < 0) {
                g.writeNullField("value");
            } else {
                ByteFormat.Rendered v = valueFormat.render(h.buffer(), h.valueOffset(), h.valueLength());
                g.writeStringField("value", v.text());
                g.writeStringField("valueEncoding", v.encoding());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private void writeBytes(String field, ByteFormat f, LogRecord r, int offset, int length) throws IOException {
        if (length < 0) {
            g.writeNullField(field);
            return;
        }
        ByteFormat.Rendered v = f.render(r.buffer(), offset, length);
        g.writeStringField(field, v.text());
        g.writeStringField(field + "Encoding", v.encoding());
    }

    private void writeBase64(String field, Bytes bytes) throws IOException {
        if (bytes == null) {
            g.writeNullField(field);
        } else {
            g.writeStringField(field, Base64.getEncoder().encodeToString(bytes.array()));
        }
    }

    private void writeError(String reason, String message, LogRecord r) throws IOException {
        g.writeObjectFieldStart("error");
        g.writeStringField("reason", reason);
        g.writeStringField("message", message);
        g.writeEndObject();
    }

    @Override
    public void problem(LogFile target, String message) {
        err.print(message + "\n");
    }

    @Override
    public void endFile(LogFile target, Tail tail, long validBytes, long fileSize, String error) {
        if (error != null) {
            err.print(error + "\n");
        }
    }

    /** One object per index or snapshot entry: {@code file}, {@code kind} and the entry's fields. */
    @Override
    public void sideFile(LogFile target) {
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    entry(target, "offset-index", "offset", offset, "position", position);
                }

                @Override
                public void emptyIndex() {
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    entry(target, "time-index", "timestamp", timestamp, "offset", offset);
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    entry(target, "txn-index", "producerId", producerId, "firstOffset", firstOffset,
                            "lastOffset", lastOffset, "lastStableOffset", lastStableOffset);
                }

                @Override
                public void snapshotEntry(io.segscope.format.state.ProducerSnapshotReader s, int i) {
                    entry(target, "producer-snapshot", "producerId", s.producerId(i), "producerEpoch", s.epoch(i),
                            "lastSequence", s.lastSequence(i), "lastOffset", s.lastOffset(i), "offsetDelta", s.offsetDelta(i),
                            "timestamp", s.timestamp(i), "coordinatorEpoch", s.coordinatorEpoch(i),
                            "currentTxnFirstOffset", s.currentTxnFirstOffset(i));
                }
            });
            if (!known) {
                err.print(target.path() + ": not a segment or side file, skipped\n");
            }
        } catch (io.segscope.format.error.FormatException e) {
            err.print(e.getMessage() + "\n");
        }
    }

    /** {@code {"file":..., "kind":..., name: value, ...}} with numeric values. */
    private void entry(LogFile target, String kind, Object... nameValues) {
        try {
            g.writeStartObject();
            g.writeStringField("file", target.path());
            g.writeStringField("kind", kind);
            for (int i = 0; i < nameValues.length; i += 2) {
                g.writeNumberField((String) nameValues[i], ((Number) nameValues[i + 1]).longValue());
            }
            g.writeEndObject();
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void flush() {
        try {
            g.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        err.flush();
    }
}
