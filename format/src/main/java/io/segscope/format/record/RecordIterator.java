package io.segscope.format.record;

/** A reused, allocation-free iterator: {@code while (it.next()) use(it.record());}. */
public interface RecordIterator {
    /** Advances; false when there are no more records. Throws FormatException on damage. */
    boolean next();

    /** The current record (a flyweight). */
    LogRecord record();
}
