package io.segscope.inspector.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.RecordSchema;
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
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.KafkaUuid;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.TransactionOutcome;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Base64;

/**
 * One JSON object per line, told apart by {@code "line"} (the schemas are in docs/schemas/, the
 * tables in the README): {@code record}, with the batch context, the record's offset, timestamp and
 * headers, and its key and value, decoded for coordinator topics with Kafka's field names;
 * {@code batch} for a batch none of whose records is written (empty batches the log cleaner keeps);
 * {@code offset-index-entry}, {@code time-index-entry}, {@code txn-index-entry},
 * {@code snapshot-entry} for side files. Written with jackson-core's streaming generator.
 */
public final class JsonlDumpWriter implements DumpWriter {
    private final PrintWriter err;
    private final JsonGenerator g;
    private final ByteFormat keyFormat;
    private final ByteFormat valueFormat;
    private TransactionOutcome transaction;

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
    public void batch(LogFile target, Batch batch, TransactionOutcome transaction) {
        this.transaction = transaction;
    }

    /** A batch none of whose records was written gets a line of its own. */
    @Override
    public void endBatch(LogFile target, Batch b, long recordsPassed) {
        if (recordsPassed > 0) {
            return;
        }
        try {
            g.writeStartObject();
            g.writeStringField("line", "batch");
            writeBatch(target, b);
            g.writeEndObject();
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** file, topic, partition and every batch field Kafka's DumpLogSegments prints. */
    private void writeBatch(LogFile target, Batch b) throws IOException {
        g.writeStringField("file", target.path());
        if (target.partition().isPresent()) {
            g.writeStringField("topic", target.partition().get().topic());
            g.writeNumberField("partition", target.partition().get().partition());
        }
        g.writeNumberField("position", b.position());
        long baseOffset;
        try {
            baseOffset = b.baseOffset();
        } catch (FormatException e) {
            baseOffset = -1; // a legacy wrapper whose inner messages cannot be read: the first is unknown
        }
        if (baseOffset < 0) {
            g.writeNullField("baseOffset");
        } else {
            g.writeNumberField("baseOffset", baseOffset);
        }
        g.writeNumberField("lastOffset", b.lastOffset());
        g.writeNumberField("magic", b.magic());
        g.writeStringField("compression", b.compression() == null ? "unknown" : b.compression().kafkaName);
        g.writeNumberField("producerId", b.producerId());
        g.writeNumberField("producerEpoch", b.producerEpoch());
        g.writeBooleanField("isTransactional", b.isTransactional());
        g.writeBooleanField("isControl", b.isControl());
        g.writeNumberField("partitionLeaderEpoch", b.partitionLeaderEpoch());
        g.writeBooleanField("crcValid", b.isValid());
        g.writeNumberField("crc", b.storedCrc());
        g.writeNumberField("size", b.sizeInBytes());
        if (b.countOrMinusOne() >= 0) {
            g.writeNumberField("count", b.countOrMinusOne());
        } else {
            g.writeNullField("count");
        }
        g.writeNumberField("baseSequence", b.baseSequence());
        g.writeNumberField("lastSequence", b.lastSequence());
        g.writeStringField("batchTimestampType", b.timestampType().kafkaName);
        writeTimestamp("maxTimestamp", b.maxTimestamp());
        writeTimestamp("deleteHorizonMs", b.hasDeleteHorizon() ? b.deleteHorizonMs() : -1);
        if (transaction != null) {
            g.writeStringField("transaction", transaction.label);
        } else {
            g.writeNullField("transaction");
        }
    }

    /** Epoch ms, or null when absent (Kafka's -1). */
    private void writeTimestamp(String field, long epochMs) throws IOException {
        if (epochMs < 0) {
            g.writeNullField(field);
        } else {
            g.writeNumberField(field, epochMs);
        }
    }

    @Override
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        try {
            g.writeStartObject();
            g.writeStringField("line", "record");
            writeBatch(target, b);
            g.writeNumberField("offset", r.offset());
            writeTimestamp("timestamp", r.timestamp());
            if (r.timestamp() < 0) {
                g.writeNullField("time");
            } else {
                g.writeStringField("time", Times.iso(r.timestamp()));
            }
            g.writeStringField("timestampType", r.timestampType().kafkaName);
            g.writeNumberField("sequence", r.sequence());
            writeHeaders(r);
            if (content instanceof RecordContent.RemoteLogMetadata rm) {
                content = new RecordContent.Metadata(rm.result());
            }
            if (content instanceof RecordContent.Control c) {
                g.writeStringField("content", "control");
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
                    writeError(Violation.INVALID_CONTROL_RECORD.kind(), error);
                }
            } else if (content instanceof RecordContent.Metadata m) {
                g.writeStringField("content", "metadata");
                writeBytes("key", keyFormat, r, r.keyOffset(), r.keyLength());
                if (m.result() instanceof MetadataDecoded d) {
                    g.writeObjectFieldStart("value");
                    g.writeStringField("type", d.typeName());
                    g.writeNumberField("version", d.version());
                    g.writeFieldName("data");
                    MetadataJson.writeStruct(g, d.value(), d.value().version());
                    g.writeEndObject();
                } else {
                    MetadataUnknown u = (MetadataUnknown) m.result();
                    if (u.value() == null) {
                        g.writeNullField("value");
                    } else {
                        g.writeObjectFieldStart("value");
                        g.writeNullField("type");
                        g.writeNumberField("version", u.version());
                        g.writeNullField("data");
                        writeBase64("base64", u.value());
                        g.writeEndObject();
                    }
                    writeError(u.reason().violation().kind(), u.kafkaMessage());
                }
            } else if (content instanceof RecordContent.Coordinator c) {
                g.writeStringField("content", "coordinator");
                writeOwner(c.result());
                writeCoordinator(c.result());
            } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
                g.writeStringField("content", "plugin");
                g.writeStringField("decoder", p.decoder());
                g.writeFieldName("key");
                PluginJson.write(g, r.hasKey() ? p.key() : null);
                g.writeFieldName("value");
                PluginJson.write(g, r.hasValue() ? p.value() : null);
            } else {
                g.writeStringField("content", "plain");
                if (content instanceof RecordContent.Plugin p) {
                    g.writeStringField("decoder", p.decoder());
                }
                writeBytes("key", keyFormat, r, r.keyOffset(), r.keyLength());
                writeBytes("value", valueFormat, r, r.valueOffset(), r.valueLength());
                if (content instanceof RecordContent.Plugin p) {
                    writeError("decoder-failed", p.error());
                }
            }
            g.writeEndObject();
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The names of what a coordinator record is about, the same whatever the schema calls them:
     * owner (group id or transactional id), keyTopic, keyTopicId, keyPartition; null when absent.
     */
    private void writeOwner(CoordinatorResult c) throws IOException {
        String owner = c.ownerId();
        if (owner == null) {
            g.writeNullField("owner");
            g.writeNullField("ownerKind");
        } else {
            g.writeStringField("owner", owner);
            g.writeStringField("ownerKind", c.topic() == CoordinatorTopic.TRANSACTION_STATE ? "transactionalId" : "group");
        }
        String topic = c.keyTopic();
        if (topic == null) {
            g.writeNullField("keyTopic");
        } else {
            g.writeStringField("keyTopic", topic);
        }
        KafkaUuid topicId = c.keyTopicId();
        if (topicId == null) {
            g.writeNullField("keyTopicId");
        } else {
            g.writeStringField("keyTopicId", topicId.toString());
        }
        if (c.keyPartition() < 0) {
            g.writeNullField("keyPartition");
        } else {
            g.writeNumberField("keyPartition", c.keyPartition());
        }
    }

    /**
     * key {@code {"type", "name", "data"}} (null when the record has none; name and data null,
     * base64 the raw bytes, when the key does not decode) and value {@code {"version", "data"}}
     * (null for a tombstone; data null, base64 the raw bytes, when it does not decode).
     */
    private void writeCoordinator(CoordinatorResult result) throws IOException {
        if (result instanceof Decoded d) {
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
            return;
        }
        Unknown u = (Unknown) result;
        if (u.key() == null) {
            g.writeNullField("key");
        } else {
            g.writeObjectFieldStart("key");
            g.writeNumberField("type", u.recordType());
            if (u.decodedKey() != null) {
                RecordSchema schema = CoordinatorRecordDecoder.forTopic(u.topic()).schemas().forType(u.recordType());
                if (schema == null) {
                    g.writeNullField("name");
                } else {
                    g.writeStringField("name", schema.name());
                }
                g.writeFieldName("data");
                CoordinatorJson.writeStruct(g, u.decodedKey());
            } else {
                g.writeNullField("name");
                g.writeNullField("data");
                writeBase64("base64", u.key());
            }
            g.writeEndObject();
        }
        if (u.value() == null) {
            g.writeNullField("value");
        } else {
            g.writeObjectFieldStart("value");
            g.writeNumberField("version", u.valueVersion());
            g.writeNullField("data");
            writeBase64("base64", u.value());
            g.writeEndObject();
        }
        writeError(u.reason().violation().kind(), u.kafkaMessage());
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

    /** {@code "error": {"reason": <a Violation kind>, "message": ...}}. */
    private void writeError(String reason, String message) throws IOException {
        g.writeObjectFieldStart("error");
        g.writeStringField("reason", reason);
        g.writeStringField("message", message);
        g.writeEndObject();
    }

    @Override
    public PrintWriter err() {
        return err;
    }

    @Override
    public void endFile(LogFile target, Tail tail, long validBytes, long fileSize, String error) {
        if (error != null) {
            err.print(error + "\n");
        }
    }

    /** One object per index or snapshot entry: {@code line} (the entry's kind), {@code file} and the entry's fields. */
    @Override
    public void sideFile(LogFile target) {
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    entry(target, "offset-index-entry", "offset", offset, "position", position);
                }

                @Override
                public void emptyIndex() {
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    entry(target, "time-index-entry", "timestamp", timestamp, "offset", offset);
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    entry(target, "txn-index-entry", "producerId", producerId, "firstOffset", firstOffset,
                            "lastOffset", lastOffset, "lastStableOffset", lastStableOffset);
                }

                @Override
                public void snapshotEntry(io.segscope.format.state.ProducerSnapshotReader s, int i) {
                    entry(target, "snapshot-entry", "producerId", s.producerId(i), "producerEpoch", s.epoch(i),
                            "lastSequence", s.lastSequence(i), "lastOffset", s.lastOffset(i), "offsetDelta", s.offsetDelta(i),
                            "timestamp", s.timestamp(i), "coordinatorEpoch", s.coordinatorEpoch(i),
                            "currentTxnFirstOffset", s.currentTxnFirstOffset(i));
                }
            });
            if (!known) {
                err.print(target.path() + ": not a segment or side file, skipped\n");
            }
        } catch (FormatException e) {
            err.print(e.getMessage() + "\n");
        }
    }

    /**
     * {@code {"line": <kind>, "file":..., name: value, ...}} with numeric values; a negative
     * {@code timestamp} (Kafka's "no timestamp") is null.
     */
    private void entry(LogFile target, String line, Object... nameValues) {
        try {
            g.writeStartObject();
            g.writeStringField("line", line);
            g.writeStringField("file", target.path());
            for (int i = 0; i < nameValues.length; i += 2) {
                String name = (String) nameValues[i];
                long value = ((Number) nameValues[i + 1]).longValue();
                if (name.equals("timestamp")) {
                    writeTimestamp(name, value);
                } else {
                    g.writeNumberField(name, value);
                }
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
