package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import io.segscope.format.record.ControlRecord;

/**
 * What {@link ControlValueDecoder} makes of a control record's value (docs/format.md 1.3): a
 * KRaft message, a transaction marker, a type Kafka does not know, or a value Kafka fails on.
 */
public sealed interface ControlValue {
    /** The control type id from the record's key. */
    short typeId();

    /**
     * A LeaderChange, SnapshotHeader, SnapshotFooter, KRaftVersion or KRaftVoters value.
     *
     * @param schema the value's schema
     * @param value the struct, read at {@link ControlValueSchema#readVersion()}
     * @param printVersion the value's own {@code Version} field, which Kafka prints it at
     * @param trailingBytes bytes after the struct (Kafka ignores them)
     */
    record Message(ControlValueSchema schema, StructValue value, short printVersion, int trailingBytes) implements ControlValue {
        @Override
        public short typeId() {
            return schema.type().id;
        }
    }

    /**
     * A COMMIT or ABORT marker.
     *
     * @param type COMMIT or ABORT
     * @param version the marker's value version (Kafka reads any version above 0 as 0)
     * @param coordinatorEpoch the coordinator epoch
     */
    record EndTxnMarker(ControlRecord.Type type, short version, int coordinatorEpoch) implements ControlValue {
        @Override
        public short typeId() {
            return type.id;
        }
    }

    /** A control type id Kafka 4.4.0 does not define; Kafka prints it and moves on. */
    record UnknownType(short typeId) implements ControlValue {
    }

    /**
     * A value Kafka 4.4.0 fails on: its reader throws and DumpLogSegments stops with that exception.
     *
     * @param type the control type
     * @param detail what went wrong
     * @param field the schema path being read, or null
     * @param position the byte position of the failure inside the value, or -1
     */
    record Malformed(ControlRecord.Type type, String detail, String field, int position) implements ControlValue {
        @Override
        public short typeId() {
            return type.id;
        }
    }
}
