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

    /** Files larger than this are read through a window ({@link #windowedAbove()}). */
    public static final long WINDOWED_ABOVE = 256L << 20;
    /** The system property that sets another size than {@link #WINDOWED_ABOVE} (bytes). */
    public static final String WINDOWED_ABOVE_PROPERTY = "segscope.windowedAbove";

    /**
     * The size above which {@link #open} reads a file through a window of memory
     * ({@link WindowedFileSource}) instead of mapping it: the resident set then holds the window,
     * not the file. Segments of Kafka's default 1 GiB (and the 2 GiB ceiling) are read so; 100 MiB
     * {@code __consumer_offsets} segments and every index are mapped.
     */
    public static long windowedAbove() {
        return Long.getLong(WINDOWED_ABOVE_PROPERTY, WINDOWED_ABOVE);
    }

    /**
     * Maps {@code file} read-only ({@code name} is what errors call it), or reads it through a
     * window when it is larger than {@link #windowedAbove()}.
     */
    public static ByteSource open(Path file, String name) {
        try {
            if (java.nio.file.Files.size(file) > windowedAbove()) {
                return new WindowedFileSource(file, name);
            }
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, 0).note(IoReasons.of(e)).build(e);
        }
        return new BufferSource(map(file, name), name, null);
    }

    /** The whole file mapped read-only (an empty buffer for an empty file). */
    private static ByteBuffer map(Path file, String name) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw FormatException.at(Violation.IO_ERROR, name, 0).field("size")
                        .expected("<= " + Integer.MAX_VALUE).actual(size)
                        .note("Kafka positions are int32; no Kafka file is this large").build();
            }
            return size == 0 ? ByteBuffer.allocate(0) : ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, 0).note(IoReasons.of(e)).build(e);
        }
    }

    public static ByteSource open(Path file) {
        return open(file, file.toString());
    }

    /**
     * Maps {@code file} read-only like {@link #open(Path, String)}, but {@code close()} unmaps it at
     * once rather than when the mapping is garbage collected, so that its pages stop counting in the
     * process's resident set. The caller must not touch the source, its buffer or any view of it
     * after closing it (the memory is gone: the JVM would crash, not throw). Where the JDK offers no
     * way to unmap, closing leaves the mapping to the garbage collector, as {@link #open} does.
     */
    public static ByteSource openReleasable(Path file, String name) {
        ByteBuffer mapped = map(file, name);
        if (!mapped.isDirect()) {
            return new BufferSource(mapped, name, null); // an empty file: nothing mapped
        }
        boolean[] closed = new boolean[1];
        return new BufferSource(mapped, name, () -> {
            if (!closed[0]) {
                closed[0] = true;
                Unmapper.unmap(mapped);
            }
        });
    }

    /** {@code sun.misc.Unsafe.invokeCleaner} (jdk.unsupported), as Kafka's {@code ByteBufferUnmapper} uses it. */
    private static final class Unmapper {
        private static final java.lang.invoke.MethodHandle INVOKE_CLEANER = find();

        private static java.lang.invoke.MethodHandle find() {
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                java.lang.reflect.Field f = unsafeClass.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                Object unsafe = f.get(null);
                return java.lang.invoke.MethodHandles.lookup()
                        .findVirtual(unsafeClass, "invokeCleaner",
                                java.lang.invoke.MethodType.methodType(void.class, ByteBuffer.class))
                        .bindTo(unsafe);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        static void unmap(ByteBuffer mapped) {
            if (INVOKE_CLEANER == null) {
                return;
            }
            try {
                INVOKE_CLEANER.invokeExact(mapped);
            } catch (Throwable e) {
                // not unmapped now: the garbage collector will
            }
        }
    }
}
