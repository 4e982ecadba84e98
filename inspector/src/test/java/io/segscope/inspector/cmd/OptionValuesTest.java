package io.segscope.inspector.cmd;

import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Option values: a bad one is a usage error (exit 2) naming the option and the values it takes. */
class OptionValuesTest {
    private static final String PLAIN = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "dump, --key-format, bogus, text",
        "dump, --value-format, bogus, base64",
        "dump, --files, bogus, timeindex",
        "dump, --files, 'log,bogus', txnindex",
        "dump, --include, bogus, delete-dirs",
        "dump, --decoder, bogus, transactions",
        "dump, --format, bogus, jsonl",
        "verify, --min-severity, bogus, warning",
        "verify, --format, bogus, jsonl",
        "verify, --max-decompressed, -5, at least 1",
        "dump, --max-decompressed, 0, at least 1"})
    void badValueIsAUsageError(String command, String option, String value, String listed) {
        Run r = Run.of(command, option, value, PLAIN);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(option).containsIgnoringCase(listed).doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "dump, --key-format, HEX",
        "dump, --value-format, base64",
        "dump, --files, 'log,index,snapshot'",
        "dump, --include, 'deleted,delete-dirs'",
        "dump, --decoder, NONE",
        "verify, --min-severity, Warning"})
    void goodValuesInAnyCaseAreTaken(String command, String option, String value) {
        Run r = Run.of(command, option, value, PLAIN + "/__consumer_offsets-0");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
    }

    @Test
    void groupFilterWorksForConsumerProtocolAndTransactionalIds() {
        Run kip848 = Run.of("dump", "--format", "jsonl", "--group", "kip848-live-日本", PLAIN + "/__consumer_offsets-31");
        assertThat(kip848.exit()).as(kip848.err()).isEqualTo(0);
        assertThat(kip848.out().lines()).isNotEmpty()
                .allMatch(l -> l.contains("\"kip848-live-日本\""));
        Run txn = Run.of("dump", "--format", "jsonl", "--group", "txn-producer-ü-1", PLAIN);
        assertThat(txn.exit()).as(txn.err()).isEqualTo(0);
        assertThat(txn.out().lines()).isNotEmpty().allMatch(l -> l.contains("\"topic\":\"__transaction_state\"")
                && l.contains("\"txn-producer-ü-1\""));
    }
}
