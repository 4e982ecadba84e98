package io.segscope.testdata.generator;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;

/**
 * Writes trees of maps, lists, strings, numbers, booleans, {@link Optional} and null as
 * pretty-printed UTF-8 JSON with jackson-core's streaming writer: strings are escaped by the
 * writer, never by hand, and non-ASCII text is written as UTF-8 rather than escaped.
 */
public final class Json {
    /** Emoji and other supplementary characters as 4-byte UTF-8, not as escaped surrogate pairs. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private Json() {
    }

    public static void write(Path file, Object tree) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        try (OutputStream out = Files.newOutputStream(file);
             JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.setPrettyPrinter(pp);
            value(g, tree);
            g.writeRaw('\n');
        }
    }

    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Optional) {
            v = ((Optional<?>) v).orElse(null);
        }
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Collection) {
            g.writeStartArray();
            for (Object o : (Collection<?>) v) {
                value(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Boolean) {
            g.writeBoolean((Boolean) v);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Number) {
            g.writeNumber(((Number) v).doubleValue());
        } else {
            g.writeString(v.toString());
        }
    }
}
