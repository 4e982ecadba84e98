package io.segscope.format.state;

import io.segscope.format.io.IoReasons;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.io.IOException;

/**
 * A log dir's {@code .kafka_cleanshutdown} marker (docs/format.md 1.1): the JSON object
 * {@code {"version":0,"brokerEpoch":N}}. Its presence means the last shutdown was clean. As in
 * Kafka, unknown fields are ignored, a missing version reads as 0 and the version is not checked
 * (only 0 exists); a missing or null brokerEpoch makes the file unusable. An empty file is what
 * brokers before 3.7 (KIP-966) write: a clean shutdown (Kafka's {@code LogManager} goes by the
 * file's presence) without a broker epoch ({@code CleanShutdownFileHandler.read()} gives none),
 * read as {@link #NO_BROKER_EPOCH}.
 */
public record CleanShutdown(int version, long brokerEpoch) {
    public static final String FILE_NAME = ".kafka_cleanshutdown";
    public static final int CURRENT_VERSION = 0;
    /** The broker epoch of an empty marker: none. */
    public static final long NO_BROKER_EPOCH = -1L;
    private static final JsonFactory JSON = new JsonFactory();

    /** @throws FormatException {@code json-format} when the text is not such an object */
    public static CleanShutdown read(ByteSource source) {
        String file = source.name();
        byte[] bytes = SmallFiles.readAll(source);
        if (bytes.length == 0) {
            return new CleanShutdown(CURRENT_VERSION, NO_BROKER_EPOCH);
        }
        int version = 0;
        Long brokerEpoch = null;
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(file, p, "root", "a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if ("version".equals(name)) {
                    version = (int) number(file, p, value, name, false);
                } else if ("brokerEpoch".equals(name)) {
                    brokerEpoch = value == JsonToken.VALUE_NULL ? null : number(file, p, value, name, true);
                } else {
                    p.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            long at = e.getLocation() == null ? FormatException.UNKNOWN : e.getLocation().getByteOffset();
            throw FormatException.at(Violation.JSON_FORMAT, file, at).expected("JSON")
                    .note(e.getOriginalMessage()).build(e);
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, file, 0).note(IoReasons.of(e)).build(e);
        }
        if (brokerEpoch == null) {
            throw FormatException.at(Violation.JSON_FORMAT, file, FormatException.UNKNOWN).field("brokerEpoch")
                    .expected("an int64").actual("absent or null").build();
        }
        return new CleanShutdown(version, brokerEpoch);
    }

    private static long number(String file, JsonParser p, JsonToken token, String field, boolean isLong) throws IOException {
        if (token == JsonToken.VALUE_NUMBER_INT && (isLong ? p.getNumberType() != JsonParser.NumberType.BIG_INTEGER
                : p.getNumberType() == JsonParser.NumberType.INT)) {
            return isLong ? p.getLongValue() : p.getIntValue();
        }
        throw error(file, p, field, isLong ? "an int64" : "an int32");
    }

    private static FormatException error(String file, JsonParser p, String field, String expected) {
        return FormatException.at(Violation.JSON_FORMAT, file, p.currentTokenLocation().getByteOffset()).field(field)
                .expected(expected).actual(String.valueOf(p.currentToken())).build();
    }
}
