package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file mapped read-only. The file is opened with READ only and never written; the mapping
 * stays valid after the channel is closed, so nothing is held open but the mapping itself.
 * Kafka's own segment and index positions are int32, so a file over 2 GiB cannot be a Kafka
 * segment and is refused with a typed error rather than partly read.
 */
public final class MappedSource {
    private MappedSource() {
    }

    /** Maps {@code file} read-only; {@code name} is what errors call it. */
    public static ByteSource open(Path file, String name) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw FormatException.at(Violation.IO_ERROR, name, 0).field("size")
                        .expected("<= " + Integer.MAX_VALUE).actual(size)
                        .note("Kafka positions are int32; no Kafka file is this large").build();
            }
            ByteBuffer buf = size == 0 ? ByteBuffer.allocate(0) : ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            return new BufferSource(buf, name, null);
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, 0).note(IoReasons.of(e)).build(e);
        }
    }

    public static ByteSource open(Path file) {
        return open(file, file.toString());
    }
}
