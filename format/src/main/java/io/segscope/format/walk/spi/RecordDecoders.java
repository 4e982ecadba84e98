package io.segscope.format.walk.spi;

import io.segscope.format.record.LogRecord;
import io.segscope.format.walk.RecordContent;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** The {@link RecordDecoder}s a run consults, in the order found; the first that handles a topic wins. */
public final class RecordDecoders {
    public static final RecordDecoders NONE = new RecordDecoders(List.of());

    private final List<RecordDecoder> decoders;

    public RecordDecoders(List<RecordDecoder> decoders) {
        this.decoders = List.copyOf(decoders);
    }

    /**
     * The decoders {@link ServiceLoader} finds through {@code loader}.
     *
     * @throws IllegalArgumentException when a declared decoder cannot be loaded or instantiated
     */
    public static RecordDecoders load(ClassLoader loader) {
        List<RecordDecoder> found = new ArrayList<>();
        try {
            for (RecordDecoder d : ServiceLoader.load(RecordDecoder.class, loader)) {
                found.add(d);
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalArgumentException("cannot load a record decoder: " + e.getMessage(), e);
        }
        return new RecordDecoders(found);
    }

    public List<RecordDecoder> decoders() {
        return decoders;
    }

    /** The first decoder that handles {@code topic}, or null. */
    public RecordDecoder forTopic(String topic) {
        for (RecordDecoder d : decoders) {
            try {
                if (d.handles(topic)) {
                    return d;
                }
            } catch (RuntimeException e) {
                // a decoder that cannot answer does not handle the topic
            }
        }
        return null;
    }

    /** What {@code decoder} makes of a record; an exception it throws becomes the content's error. */
    public static RecordContent.Plugin decode(RecordDecoder decoder, String topic, LogRecord r) {
        Object key = null;
        Object value = null;
        try {
            if (r.hasKey()) {
                key = decoder.decodeKey(topic, slice(r.buffer(), r.keyOffset(), r.keyLength()));
            }
            if (r.hasValue()) {
                value = decoder.decodeValue(topic, slice(r.buffer(), r.valueOffset(), r.valueLength()));
            }
        } catch (RuntimeException | LinkageError e) {
            return new RecordContent.Plugin(decoder.name(), null, null, e.toString());
        }
        return new RecordContent.Plugin(decoder.name(), key, value, null);
    }

    private static ByteBuffer slice(ByteBuffer b, int off, int len) {
        return b.slice(off, len).asReadOnlyBuffer();
    }
}
