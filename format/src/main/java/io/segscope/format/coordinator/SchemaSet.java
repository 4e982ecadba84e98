package io.segscope.format.coordinator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The record schemas of one coordinator topic, indexed by record type, plus an optional step that
 * refines a decoded value (the group topic decodes classic members' consumer protocol bytes).
 */
public final class SchemaSet {
    private final CoordinatorTopic topic;
    private final RecordSchema[] byType;
    private final List<RecordSchema> all;
    private final RecordSchema refinedType;
    private final UnaryOperator<StructValue> refine;

    /**
     * @param refinedType the record whose values {@code refine} is applied to, or null
     */
    public SchemaSet(CoordinatorTopic topic, List<RecordSchema> records, RecordSchema refinedType,
                     UnaryOperator<StructValue> refine) {
        this.topic = topic;
        int max = 0;
        for (RecordSchema r : records) {
            max = Math.max(max, r.type());
        }
        this.byType = new RecordSchema[max + 1];
        for (RecordSchema r : records) {
            if (byType[r.type()] != null) {
                throw new IllegalArgumentException("duplicate record type " + r.type());
            }
            if (r.key().keyFields().owner() < 0) {
                throw new IllegalArgumentException(r.key().name() + " has no group or transactional id field");
            }
            byType[r.type()] = r;
        }
        this.all = Collections.unmodifiableList(new ArrayList<>(records));
        this.refinedType = refinedType;
        this.refine = refine;
    }

    public CoordinatorTopic topic() {
        return topic;
    }

    /** The schema of this record type, or null when the type is unknown. */
    public RecordSchema forType(int type) {
        return type >= 0 && type < byType.length ? byType[type] : null;
    }

    /** Every record schema, in declaration order. */
    public List<RecordSchema> records() {
        return all;
    }

    /** Whether values of {@code schema} are refined after reading (their JSON is not the plain struct's). */
    public boolean refines(RecordSchema schema) {
        return schema == refinedType && refine != null;
    }

    StructValue refine(RecordSchema schema, StructValue value) {
        return schema == refinedType && refine != null ? refine.apply(value) : value;
    }
}
