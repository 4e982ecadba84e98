package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.json.CoordinatorJson;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads Kafka DumpLogSegments output and checks segscope's text against its record lines. */
final class DumpLines {
    // DOTALL: Jackson does not escape U+2028/U+0085, which '.' would not match otherwise
    private static final Pattern RECORD_LINE = Pattern.compile("^\\| offset: (\\d+) .*", Pattern.DOTALL);

    private DumpLines() {
    }

    /** The {@code | offset: N ...} lines of one segment's output, by offset. */
    static Map<Long, String> byOffset(List<String> lines) {
        Map<Long, String> m = new HashMap<>();
        for (String line : lines) {
            Matcher x = RECORD_LINE.matcher(line);
            if (x.matches()) {
                m.put(Long.parseLong(x.group(1)), line);
            }
        }
        return m;
    }

    static boolean isRecordLine(String line) {
        return RECORD_LINE.matcher(line).matches();
    }

    static long offsetOf(String line) {
        Matcher x = RECORD_LINE.matcher(line);
        if (!x.matches()) {
            throw new IllegalArgumentException(line);
        }
        return Long.parseLong(x.group(1));
    }

    /**
     * Asserts that the line ends with segscope's {@code key:}/{@code payload:} text for the
     * result. For records neither decodes, Kafka's message ends with its own reader's exception
     * text, so only the part up to it is compared.
     */
    static void assertSameText(String line, CoordinatorResult result, long offset, String where) {
        String key = CoordinatorJson.dumpKeyText(result, offset);
        String payload = CoordinatorJson.dumpPayloadText(result);
        if (result instanceof Unknown && (((Unknown) result).reason() == UnknownReason.MALFORMED_KEY
                || ((Unknown) result).reason() == UnknownReason.MALFORMED_VALUE) && key.contains(" due to: ")) {
            assertThat(line).as(where).contains(" key: " + key.substring(0, key.indexOf(" due to: ") + 9));
            return;
        }
        assertThat(line).as(where).endsWith(" key: " + key + (payload == null ? "" : " payload: " + payload));
    }
}
