package io.segscope.format.coordinator;

/**
 * Hears the tagged fields a {@link StructReader} meets (docs/format.md 2.7), in the order they
 * are read: a known tag once its field is read, an unknown one once it is skipped. Optional: a
 * reader without a sink pays one null check per tag.
 */
@FunctionalInterface
public interface TagSink {
    /**
     * One tagged field.
     *
     * @param struct the struct the tag was read in (a record's value or a struct nested in it)
     * @param tag the tag number
     * @param field the schema's field of that tag at the version read, or null when the schema
     *     does not know the tag at that version (an unknown tag, skipped by its size)
     */
    void tag(StructSchema struct, int tag, Field field);
}
