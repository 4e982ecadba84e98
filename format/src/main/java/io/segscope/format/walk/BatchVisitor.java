package io.segscope.format.walk;

import io.segscope.format.record.Batch;

/** Receives what {@link SegmentWalk} finds in a record file, in file order. */
public interface BatchVisitor {
    /**
     * A batch. The view is valid until this method returns.
     *
     * @return false to stop walking this file
     */
    boolean batch(Batch batch);

    /** Damaged bytes; the walk goes on at {@link Damage#resumeAt()} unless they are a torn tail. */
    void damage(Damage damage);
}
