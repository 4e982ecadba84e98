package io.segscope.inspector.output;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.DumpOutput;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.UnknownReason;

import static org.assertj.core.api.Assertions.assertThat;


/** Checks segscope's text against the record lines of Kafka's DumpLogSegments output ({@link DumpOutput}). */
final class DumpLines {
    private DumpLines() {
    }

    /**
     * Asserts that the line ends with segscope's {@code key:}/{@code payload:} text for the
     * result. For records neither decodes, Kafka's message ends with its own reader's exception
     * text, so only the part up to it is compared.
     */
    static void assertSameText(String line, CoordinatorResult result, long offset, String where) {
        String key = KafkaDumpText.keyText(result, offset);
        String payload = KafkaDumpText.payloadText(result);
        if (result instanceof Unknown && (((Unknown) result).reason() == UnknownReason.MALFORMED_KEY
                || ((Unknown) result).reason() == UnknownReason.MALFORMED_VALUE) && key.contains(" due to: ")) {
            assertThat(line).as(where).contains(" key: " + key.substring(0, key.indexOf(" due to: ") + 9));
            return;
        }
        assertThat(line).as(where).endsWith(" key: " + key + (payload == null ? "" : " payload: " + payload));
    }
}
