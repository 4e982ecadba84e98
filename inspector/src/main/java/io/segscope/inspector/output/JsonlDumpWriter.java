package io.segscope.inspector.output;

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
import io.segscope.format.json.CoordinatorStream;
import io.segscope.format.json.JsonOut;
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

import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Base64;

/**
 * One JSON object per line, told apart by {@code "line"} (the schemas are in docs/schemas/, the
 * tables in the README): {@code record}, with the batch context, the record's offset, timestamp and
 * headers, and its key and value, decoded for coordinator topics with Kafka's field names;
 * {@code batch} for a batch none of whose records is written (empty batches the log cleaner keeps);
 * {@code offset-index-entry}, {@code time-index-entry}, {@code txn-index-entry},
 * {@code snapshot-entry} for side files. Written as bytes with {@link JsonOut}.
 */
public final class JsonlDumpWriter extends ByteDumpWriter {
    private static final JsonOut.Text T_TRANSACTIONAL_ID = JsonOut.text("transactionalId");
    private static final JsonOut.Text T_GROUP = JsonOut.text("group");
    private static final JsonOut.Text T_BATCH = JsonOut.text("batch");
    private static final JsonOut.Text T_RECORD = JsonOut.text("record");
    private static final JsonOut.Text T_CONTROL = JsonOut.text("control");
    private static final JsonOut.Text T_METADATA = JsonOut.text("metadata");
    private static final JsonOut.Text T_COORDINATOR = JsonOut.text("coordinator");
    private static final JsonOut.Text T_PLUGIN = JsonOut.text("plugin");
    private static final JsonOut.Text T_PLAIN = JsonOut.text("plain");
    /** Timestamp types' names, by ordinal. */
    private static final JsonOut.Text[] TIMESTAMP_TYPES = java.util.Arrays.stream(io.segscope.format.record.TimestampType.values())
            .map(t -> JsonOut.text(t.kafkaName)).toArray(JsonOut.Text[]::new);
    private static final JsonOut.Name N_BASE64 = JsonOut.name("base64");
    private static final JsonOut.Name N_CONTROL = JsonOut.name("control");
    private static final JsonOut.Name N_CURRENT_TXN_FIRST_OFFSET = JsonOut.name("currentTxnFirstOffset");
    private static final JsonOut.Name N_ERROR = JsonOut.name("error");
    private static final JsonOut.Name N_FIRST_OFFSET = JsonOut.name("firstOffset");
    private static final JsonOut.Name N_HEADERS = JsonOut.name("headers");
    private static final JsonOut.Name N_KEY_ENCODING = JsonOut.name("keyEncoding");
    private static final JsonOut.Name N_LAST_STABLE_OFFSET = JsonOut.name("lastStableOffset");
    private static final JsonOut.Name N_OFFSET_DELTA = JsonOut.name("offsetDelta");
    private static final JsonOut.Name N_MAX_TIMESTAMP = JsonOut.name("maxTimestamp");
    private static final JsonOut.Name N_DELETE_HORIZON_MS = JsonOut.name("deleteHorizonMs");
    private static final JsonOut.Name N_TIMESTAMP = JsonOut.name("timestamp");
    private static final JsonOut.Name N_BASE_OFFSET = JsonOut.name("baseOffset");
    private static final JsonOut.Name N_BASE_SEQUENCE = JsonOut.name("baseSequence");
    private static final JsonOut.Name N_BATCH_TIMESTAMP_TYPE = JsonOut.name("batchTimestampType");
    private static final JsonOut.Name N_COMPRESSION = JsonOut.name("compression");
    private static final JsonOut.Name N_CONTENT = JsonOut.name("content");
    private static final JsonOut.Name N_COORDINATOR_EPOCH = JsonOut.name("coordinatorEpoch");
    private static final JsonOut.Name N_COUNT = JsonOut.name("count");
    private static final JsonOut.Name N_CRC = JsonOut.name("crc");
    private static final JsonOut.Name N_CRC_VALID = JsonOut.name("crcValid");
    private static final JsonOut.Name N_DATA = JsonOut.name("data");
    private static final JsonOut.Name N_DECODER = JsonOut.name("decoder");
    private static final JsonOut.Name N_FILE = JsonOut.name("file");
    private static final JsonOut.Name N_IS_CONTROL = JsonOut.name("isControl");
    private static final JsonOut.Name N_IS_TRANSACTIONAL = JsonOut.name("isTransactional");
    private static final JsonOut.Name N_KEY = JsonOut.name("key");
    private static final JsonOut.Name N_KEY_PARTITION = JsonOut.name("keyPartition");
    private static final JsonOut.Name N_KEY_TOPIC = JsonOut.name("keyTopic");
    private static final JsonOut.Name N_KEY_TOPIC_ID = JsonOut.name("keyTopicId");
    private static final JsonOut.Name N_LAST_OFFSET = JsonOut.name("lastOffset");
    private static final JsonOut.Name N_LAST_SEQUENCE = JsonOut.name("lastSequence");
    private static final JsonOut.Name N_LINE = JsonOut.name("line");
    private static final JsonOut.Name N_MAGIC = JsonOut.name("magic");
    private static final JsonOut.Name N_MESSAGE = JsonOut.name("message");
    private static final JsonOut.Name N_NAME = JsonOut.name("name");
    private static final JsonOut.Name N_OFFSET = JsonOut.name("offset");
    private static final JsonOut.Name N_OWNER = JsonOut.name("owner");
    private static final JsonOut.Name N_OWNER_KIND = JsonOut.name("ownerKind");
    private static final JsonOut.Name N_PARTITION = JsonOut.name("partition");
    private static final JsonOut.Name N_PARTITION_LEADER_EPOCH = JsonOut.name("partitionLeaderEpoch");
    private static final JsonOut.Name N_POSITION = JsonOut.name("position");
    private static final JsonOut.Name N_PRODUCER_EPOCH = JsonOut.name("producerEpoch");
    private static final JsonOut.Name N_PRODUCER_ID = JsonOut.name("producerId");
    private static final JsonOut.Name N_REASON = JsonOut.name("reason");
    private static final JsonOut.Name N_SEQUENCE = JsonOut.name("sequence");
    private static final JsonOut.Name N_SIZE = JsonOut.name("size");
    private static final JsonOut.Name N_TIME = JsonOut.name("time");
    private static final JsonOut.Name N_TIMESTAMP_TYPE = JsonOut.name("timestampType");
    private static final JsonOut.Name N_TOPIC = JsonOut.name("topic");
    private static final JsonOut.Name N_TRANSACTION = JsonOut.name("transaction");
    private static final JsonOut.Name N_TYPE = JsonOut.name("type");
    private static final JsonOut.Name N_UNKNOWN_TAGGED_FIELDS = JsonOut.name("unknownTaggedFields");
    private static final JsonOut.Name N_VALUE = JsonOut.name("value");
    private static final JsonOut.Name N_VALUE_ENCODING = JsonOut.name("valueEncoding");
    private static final JsonOut.Name N_VERSION = JsonOut.name("version");

    private final PrintWriter err;
    private final ByteFormat keyFormat;
    private final ByteFormat valueFormat;
    private TransactionOutcome transaction;
    private final CoordinatorStream stream = new CoordinatorStream();
    private final Times.Last recordTime = new Times.Last();
    private final java.util.IdentityHashMap<io.segscope.format.coordinator.RecordSchema, JsonOut.Text> schemaNames =
            new java.util.IdentityHashMap<>();
    /** The batch's fields as the first record of the batch wrote them (the same for each of its records), or length -1. */
    private byte[] batchFields = new byte[1024];
    private int batchFieldsLength = -1;

    public JsonlDumpWriter(OutputStream out, PrintWriter err, ByteFormat keyFormat, ByteFormat valueFormat) {
        super(out, err);
        this.err = err;
        this.keyFormat = keyFormat;
        this.valueFormat = valueFormat;
    }

    @Override
    public void beginFile(LogFile target) {
    }

    @Override
    public void batch(LogFile target, Batch batch, TransactionOutcome transaction) {
        this.transaction = transaction;
        this.batchFieldsLength = -1;
    }

    /** A batch none of whose records was written gets a line of its own. */
    @Override
    public void endBatch(LogFile target, Batch b, long recordsPassed) {
        if (recordsPassed > 0) {
            return;
        }
        o.writeStartObject();
        o.writeStringField(N_LINE, T_BATCH);
        writeBatch(target, b);
        o.writeEndObject();
        o.raw('\n');
        lineDone();
    }

    /** file, topic, partition and every batch field Kafka's DumpLogSegments prints. */
    private void writeBatch(LogFile target, Batch b) {
        o.writeStringField(N_FILE, target.path());
        if (target.partition().isPresent()) {
            o.writeStringField(N_TOPIC, target.partition().get().topic());
            o.writeNumberField(N_PARTITION, target.partition().get().partition());
        }
        o.writeNumberField(N_POSITION, b.position());
        long baseOffset;
        try {
            baseOffset = b.baseOffset();
        } catch (FormatException e) {
            baseOffset = -1; // a legacy wrapper whose inner messages cannot be read: the first is unknown
        }
        if (baseOffset < 0) {
            o.writeNullField(N_BASE_OFFSET);
        } else {
            o.writeNumberField(N_BASE_OFFSET, baseOffset);
        }
        o.writeNumberField(N_LAST_OFFSET, b.lastOffset());
        o.writeNumberField(N_MAGIC, b.magic());
        o.writeStringField(N_COMPRESSION, b.compression() == null ? "unknown" : b.compression().kafkaName);
        o.writeNumberField(N_PRODUCER_ID, b.producerId());
        o.writeNumberField(N_PRODUCER_EPOCH, b.producerEpoch());
        o.writeBooleanField(N_IS_TRANSACTIONAL, b.isTransactional());
        o.writeBooleanField(N_IS_CONTROL, b.isControl());
        o.writeNumberField(N_PARTITION_LEADER_EPOCH, b.partitionLeaderEpoch());
        o.writeBooleanField(N_CRC_VALID, b.isValid());
        o.writeNumberField(N_CRC, b.storedCrc());
        o.writeNumberField(N_SIZE, b.sizeInBytes());
        if (b.countOrMinusOne() >= 0) {
            o.writeNumberField(N_COUNT, b.countOrMinusOne());
        } else {
            o.writeNullField(N_COUNT);
        }
        o.writeNumberField(N_BASE_SEQUENCE, b.baseSequence());
        o.writeNumberField(N_LAST_SEQUENCE, b.lastSequence());
        o.writeStringField(N_BATCH_TIMESTAMP_TYPE, b.timestampType().kafkaName);
        writeTimestamp(N_MAX_TIMESTAMP, b.maxTimestamp());
        writeTimestamp(N_DELETE_HORIZON_MS, b.hasDeleteHorizon() ? b.deleteHorizonMs() : -1);
        if (transaction != null) {
            o.writeStringField(N_TRANSACTION, transaction.label);
        } else {
            o.writeNullField(N_TRANSACTION);
        }
    }

    /** Epoch ms, or null when absent (Kafka's -1). */
    private void writeTimestamp(JsonOut.Name field, long epochMs) {
        if (epochMs < 0) {
            o.writeNullField(field);
        } else {
            o.writeNumberField(field, epochMs);
        }
    }

    @Override
    public void record(LogFile target, Batch b, LogRecord r, RecordContent content) {
        o.writeStartObject();
        o.writeStringField(N_LINE, T_RECORD);
        if (batchFieldsLength < 0) {
            int start = o.size();
            writeBatch(target, b);
            batchFieldsLength = o.size() - start;
            if (batchFields.length < batchFieldsLength) {
                batchFields = new byte[batchFieldsLength * 2];
            }
            System.arraycopy(o.array(), start, batchFields, 0, batchFieldsLength);
        } else {
            o.raw(batchFields, 0, batchFieldsLength);
        }
        o.writeNumberField(N_OFFSET, r.offset());
        writeTimestamp(N_TIMESTAMP, r.timestamp());
        if (r.timestamp() < 0) {
            o.writeNullField(N_TIME);
        } else {
            o.writeFieldName(N_TIME);
            o.raw('"');
            recordTime.iso(o, r.timestamp());
            o.raw('"');
        }
        o.writeStringField(N_TIMESTAMP_TYPE, TIMESTAMP_TYPES[r.timestampType().ordinal()]);
        o.writeNumberField(N_SEQUENCE, r.sequence());
        writeHeaders(r);
        if (content instanceof RecordContent.RemoteLogMetadata rm) {
            content = new RecordContent.Metadata(rm.result());
        }
        if (content instanceof RecordContent.Control c) {
            o.writeStringField(N_CONTENT, T_CONTROL);
            o.writeObjectFieldStart(N_CONTROL);
            if (c.type() == io.segscope.format.record.ControlRecord.Type.UNKNOWN) {
                o.writeNumberField(N_TYPE, c.typeId());
            } else {
                o.writeStringField(N_TYPE, c.type().name());
            }
            if (c.coordinatorEpoch() >= 0) {
                o.writeNumberField(N_COORDINATOR_EPOCH, c.coordinatorEpoch());
            }
            if (c.value() instanceof ControlValue.Message m) {
                o.writeNumberField(N_VERSION, m.printVersion());
                o.writeFieldName(N_DATA);
                MetadataJson.writeControlData(o, m);
            }
            o.writeEndObject();
            String error = c.error() != null ? c.error() : c.valueError();
            if (error != null) {
                writeError(Violation.INVALID_CONTROL_RECORD.kind(), error);
            }
        } else if (content instanceof RecordContent.Metadata m) {
            o.writeStringField(N_CONTENT, T_METADATA);
            writeBytes(N_KEY, N_KEY_ENCODING, keyFormat, r, r.keyOffset(), r.keyLength());
            if (m.result() instanceof MetadataDecoded d) {
                o.writeObjectFieldStart(N_VALUE);
                o.writeStringField(N_TYPE, d.typeName());
                o.writeNumberField(N_VERSION, d.version());
                o.writeFieldName(N_DATA);
                MetadataJson.writeStruct(o, d.value(), d.value().version());
                o.writeEndObject();
            } else {
                MetadataUnknown u = (MetadataUnknown) m.result();
                if (u.value() == null) {
                    o.writeNullField(N_VALUE);
                } else {
                    o.writeObjectFieldStart(N_VALUE);
                    o.writeNullField(N_TYPE);
                    o.writeNumberField(N_VERSION, u.version());
                    o.writeNullField(N_DATA);
                    writeBase64(N_BASE64, u.value());
                    o.writeEndObject();
                }
                writeError(u.reason().violation().kind(), u.kafkaMessage());
            }
        } else if (content instanceof RecordContent.Coordinator c) {
            o.writeStringField(N_CONTENT, T_COORDINATOR);
            if (!fast(c)) {
                writeOwner(c.result());
                writeCoordinator(c.result());
            }
        } else if (content instanceof RecordContent.Plugin p && p.error() == null) {
            o.writeStringField(N_CONTENT, T_PLUGIN);
            o.writeStringField(N_DECODER, p.decoder());
            o.writeFieldName(N_KEY);
            PluginJson.write(o, r.hasKey() ? p.key() : null);
            o.writeFieldName(N_VALUE);
            PluginJson.write(o, r.hasValue() ? p.value() : null);
        } else {
            o.writeStringField(N_CONTENT, T_PLAIN);
            if (content instanceof RecordContent.Plugin p) {
                o.writeStringField(N_DECODER, p.decoder());
            }
            writeBytes(N_KEY, N_KEY_ENCODING, keyFormat, r, r.keyOffset(), r.keyLength());
            writeBytes(N_VALUE, N_VALUE_ENCODING, valueFormat, r, r.valueOffset(), r.valueLength());
            if (content instanceof RecordContent.Plugin p) {
                writeError("decoder-failed", p.error());
            }
        }
        o.writeEndObject();
        o.raw('\n');
        lineDone();
    }

    /** Owner, key and value straight from the record's bytes, when {@link CoordinatorStream} takes the record. */
    private boolean fast(RecordContent.Coordinator c) {
        if (!openFast(stream, c)) {
            return false;
        }
        long mark = o.mark();
        JsonOut.Text kind = c.decoder().schemas().topic() == CoordinatorTopic.TRANSACTION_STATE ? T_TRANSACTIONAL_ID : T_GROUP;
        if (!stream.writeKeyFacts(o, N_OWNER, N_OWNER_KIND, kind, N_KEY_TOPIC, N_KEY_TOPIC_ID, N_KEY_PARTITION)) {
            return false;
        }
        o.writeObjectFieldStart(N_KEY);
        o.writeNumberField(N_TYPE, stream.schema().type());
        o.writeStringField(N_NAME, schemaNames.computeIfAbsent(stream.schema(), s -> JsonOut.text(s.name())));
        o.writeFieldName(N_DATA);
        if (!stream.writeKeyData(o)) {
            o.rewind(mark);
            return false;
        }
        o.writeEndObject();
        if (stream.isTombstone()) {
            o.writeNullField(N_VALUE);
            return true;
        }
        o.writeObjectFieldStart(N_VALUE);
        o.writeNumberField(N_VERSION, stream.valueVersion());
        o.writeFieldName(N_DATA);
        if (!stream.writeValueData(o)) {
            o.rewind(mark);
            return false;
        }
        o.writeEndObject();
        return true;
    }

    /**
     * The names of what a coordinator record is about, the same whatever the schema calls them:
     * owner (group id or transactional id), keyTopic, keyTopicId, keyPartition; null when absent.
     */
    private void writeOwner(CoordinatorResult c) {
        String owner = c.ownerId();
        if (owner == null) {
            o.writeNullField(N_OWNER);
            o.writeNullField(N_OWNER_KIND);
        } else {
            o.writeStringField(N_OWNER, owner);
            o.writeStringField(N_OWNER_KIND, c.topic() == CoordinatorTopic.TRANSACTION_STATE ? "transactionalId" : "group");
        }
        String topic = c.keyTopic();
        if (topic == null) {
            o.writeNullField(N_KEY_TOPIC);
        } else {
            o.writeStringField(N_KEY_TOPIC, topic);
        }
        KafkaUuid topicId = c.keyTopicId();
        if (topicId == null) {
            o.writeNullField(N_KEY_TOPIC_ID);
        } else {
            o.writeStringField(N_KEY_TOPIC_ID, topicId.toString());
        }
        if (c.keyPartition() < 0) {
            o.writeNullField(N_KEY_PARTITION);
        } else {
            o.writeNumberField(N_KEY_PARTITION, c.keyPartition());
        }
    }

    /**
     * key {@code {"type", "name", "data"}} (null when the record has none; name and data null,
     * base64 the raw bytes, when the key does not decode) and value {@code {"version", "data"}}
     * (null for a tombstone; data null, base64 the raw bytes, when it does not decode).
     */
    private void writeCoordinator(CoordinatorResult result) {
        if (result instanceof Decoded d) {
            o.writeObjectFieldStart(N_KEY);
            o.writeNumberField(N_TYPE, d.recordType());
            o.writeStringField(N_NAME, d.schema().name());
            o.writeFieldName(N_DATA);
            CoordinatorJson.writeStruct(o, d.key());
            o.writeEndObject();
            if (d.isTombstone()) {
                o.writeNullField(N_VALUE);
            } else {
                o.writeObjectFieldStart(N_VALUE);
                o.writeNumberField(N_VERSION, d.valueVersion());
                o.writeFieldName(N_DATA);
                CoordinatorJson.writeStruct(o, d.value());
                o.writeEndObject();
                if (d.unknownTaggedFields() > 0) {
                    o.writeNumberField(N_UNKNOWN_TAGGED_FIELDS, d.unknownTaggedFields());
                }
            }
            return;
        }
        Unknown u = (Unknown) result;
        if (u.key() == null) {
            o.writeNullField(N_KEY);
        } else {
            o.writeObjectFieldStart(N_KEY);
            o.writeNumberField(N_TYPE, u.recordType());
            if (u.decodedKey() != null) {
                RecordSchema schema = CoordinatorRecordDecoder.forTopic(u.topic()).schemas().forType(u.recordType());
                if (schema == null) {
                    o.writeNullField(N_NAME);
                } else {
                    o.writeStringField(N_NAME, schema.name());
                }
                o.writeFieldName(N_DATA);
                CoordinatorJson.writeStruct(o, u.decodedKey());
            } else {
                o.writeNullField(N_NAME);
                o.writeNullField(N_DATA);
                writeBase64(N_BASE64, u.key());
            }
            o.writeEndObject();
        }
        if (u.value() == null) {
            o.writeNullField(N_VALUE);
        } else {
            o.writeObjectFieldStart(N_VALUE);
            o.writeNumberField(N_VERSION, u.valueVersion());
            o.writeNullField(N_DATA);
            writeBase64(N_BASE64, u.value());
            o.writeEndObject();
        }
        writeError(u.reason().violation().kind(), u.kafkaMessage());
    }

    private void writeHeaders(LogRecord r) {
        o.writeArrayFieldStart(N_HEADERS);
        HeaderIterator h = r.headers();
        while (h.next()) {
            o.writeStartObject();
            o.writeStringField(N_KEY, ByteFormat.kafkaUtf8(h.buffer(), h.keyOffset(), h.keyLength()));
            if (h.valueLength() < 0) {
                o.writeNullField(N_VALUE);
            } else {
                ByteFormat.Rendered v = valueFormat.render(h.buffer(), h.valueOffset(), h.valueLength());
                o.writeStringField(N_VALUE, v.text());
                o.writeStringField(N_VALUE_ENCODING, v.encoding());
            }
            o.writeEndObject();
        }
        o.writeEndArray();
    }

    private void writeBytes(JsonOut.Name field, JsonOut.Name encodingField, ByteFormat f, LogRecord r, int offset, int length) {
        if (length < 0) {
            o.writeNullField(field);
            return;
        }
        ByteFormat.Rendered v = f.render(r.buffer(), offset, length);
        o.writeStringField(field, v.text());
        o.writeStringField(encodingField, v.encoding());
    }

    private void writeBase64(JsonOut.Name field, Bytes bytes) {
        if (bytes == null) {
            o.writeNullField(field);
        } else {
            o.writeStringField(field, Base64.getEncoder().encodeToString(bytes.array()));
        }
    }

    /** {@code "error": {"reason": <a Violation kind>, "message": ...}}. */
    private void writeError(String reason, String message) {
        o.writeObjectFieldStart(N_ERROR);
        o.writeStringField(N_REASON, reason);
        o.writeStringField(N_MESSAGE, message);
        o.writeEndObject();
    }

    @Override
    public void endFile(LogFile target, Tail tail, long validBytes, long fileSize, String error) {
        if (error != null) {
            err.print(error + "\n");
        }
    }

    @Override
    ByteDumpWriter pieceWriter() {
        return new JsonlDumpWriter(null, err, keyFormat, valueFormat);
    }

    /** One object per index or snapshot entry: {@code line} (the entry's kind), {@code file} and the entry's fields. */
    @Override
    public void sideFile(LogFile target) {
        try {
            boolean known = SideFiles.visit(target, new SideFiles.Visitor() {
                @Override
                public void indexEntry(long offset, int position) {
                    entry(target, "offset-index-entry", N_OFFSET, offset, N_POSITION, position);
                }

                @Override
                public void emptyIndex() {
                }

                @Override
                public void timeIndexEntry(long timestamp, long offset) {
                    entry(target, "time-index-entry", N_TIMESTAMP, timestamp, N_OFFSET, offset);
                }

                @Override
                public void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                    entry(target, "txn-index-entry", N_PRODUCER_ID, producerId, N_FIRST_OFFSET, firstOffset,
                            N_LAST_OFFSET, lastOffset, N_LAST_STABLE_OFFSET, lastStableOffset);
                }

                @Override
                public void snapshotEntry(io.segscope.format.state.ProducerSnapshotReader s, int i) {
                    entry(target, "snapshot-entry", N_PRODUCER_ID, s.producerId(i), N_PRODUCER_EPOCH, s.epoch(i),
                            N_LAST_SEQUENCE, s.lastSequence(i), N_LAST_OFFSET, s.lastOffset(i), N_OFFSET_DELTA, s.offsetDelta(i),
                            N_TIMESTAMP, s.timestamp(i), N_COORDINATOR_EPOCH, s.coordinatorEpoch(i),
                            N_CURRENT_TXN_FIRST_OFFSET, s.currentTxnFirstOffset(i));
                }
            });
            if (!known) {
                err.print(target.path() + ": not a segment or side file, skipped\n");
            }
        } catch (FormatException e) {
            err.print(e.getMessage() + "\n");
            sideFileDamaged = true;
        }
    }

    /**
     * {@code {"line": <kind>, "file":..., name: value, ...}} with numeric values; a negative
     * {@code timestamp} (Kafka's "no timestamp") is null.
     */
    private void entry(LogFile target, String line, Object... nameValues) {
        o.writeStartObject();
        o.writeStringField(N_LINE, line);
        o.writeStringField(N_FILE, target.path());
        for (int i = 0; i < nameValues.length; i += 2) {
            JsonOut.Name name = (JsonOut.Name) nameValues[i];
            long value = ((Number) nameValues[i + 1]).longValue();
            if (name == N_TIMESTAMP) {
                writeTimestamp(name, value);
            } else {
                o.writeNumberField(name, value);
            }
        }
        o.writeEndObject();
        o.raw('\n');
        lineDone();
    }
}
