package io.segscope.format.verify;

import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks of {@link Verifier} that need sibling files or real broker output, on temporary copies. */
class VerifierTest {
    private static final String SEG0 = "00000000000000000000";
    private static final String SEG100 = "00000000000000000100";

    private static Path copy(Path src, Path dst) throws IOException {
        Files.createDirectories(dst);
        try (Stream<Path> s = Files.list(src)) {
            for (Path p : s.toList()) {
                Files.copy(p, dst.resolve(p.getFileName()));
            }
        }
        return dst;
    }

    private static Path magic2(Path tmp) throws IOException {
        return copy(Corpus.synthetic().resolve("logdir/synthetic-magic2-0"), tmp.resolve("synthetic-magic2-0"));
    }

    private static void append(Path file, int zeros) throws IOException {
        Files.write(file, new byte[zeros], StandardOpenOption.APPEND);
    }

    private static Finding find(List<Finding> findings, Violation kind) {
        return findings.stream().filter(f -> f.violation() == kind).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind.kind() + " in " + findings));
    }

    @Test
    void crashedBrokerIndexesArePreallocatedNotBroken() {
        Path logDir = Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(logDir));
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(logDir));
        assertThat(findings).allMatch(f -> f.severity() == Severity.INFO);
        assertThat(findings).anyMatch(f -> f.violation() == Violation.INDEX_PREALLOCATED);
        assertThat(findings).anyMatch(f -> f.violation() == Violation.UNCLEAN_SHUTDOWN);
    }

    @Test
    void zeroTailOfAClosedSegmentIsKafka10207(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        append(dir.resolve(SEG0 + ".timeindex"), 24);
        append(dir.resolve(SEG0 + ".index"), 16);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir));
        assertThat(findings).filteredOn(f -> f.violation() == Violation.INDEX_ZERO_TAIL)
                .extracting(Finding::file, Finding::position, Finding::severity)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(dir.resolve(SEG0 + ".timeindex").toString(), 48L, Severity.WARNING),
                        org.assertj.core.groups.Tuple.tuple(dir.resolve(SEG0 + ".index").toString(), 32L, Severity.WARNING));
    }

    @Test
    void zeroTailOfTheActiveSegmentIsPreallocation(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        append(dir.resolve(SEG100 + ".timeindex"), 12 * 100);
        append(dir.resolve(SEG100 + ".index"), 8 * 100);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir));
        assertThat(findings).allMatch(f -> f.severity() == Severity.INFO);
        assertThat(findings).filteredOn(f -> f.violation() == Violation.INDEX_PREALLOCATED).hasSize(2);
    }

    @Test
    void zeroTailOfTheActiveSegmentAfterCleanShutdownIsAWarning(@TempDir Path tmp) throws IOException {
        Path logDir = tmp.resolve("logs");
        Path dir = copy(Corpus.synthetic().resolve("logdir/synthetic-magic2-0"), logDir.resolve("synthetic-magic2-0"));
        Files.writeString(logDir.resolve(".kafka_cleanshutdown"), "{\"version\":0,\"brokerEpoch\":7}");
        append(dir.resolve(SEG100 + ".index"), 8 * 10);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(logDir));
        Finding f = find(findings, Violation.INDEX_ZERO_TAIL);
        assertThat(f.severity()).isEqualTo(Severity.WARNING);
        assertThat(f.position()).isEqualTo(8);
    }

    /** synthetic-magic2-0 (segments 0 and 100) as the KRaft metadata log of a cleanly shut down log dir. */
    private static Path cleanMetadataLog(Path tmp) throws IOException {
        Path logDir = tmp.resolve("logs");
        Path dir = copy(Corpus.synthetic().resolve("logdir/synthetic-magic2-0"), logDir.resolve("__cluster_metadata-0"));
        Files.writeString(logDir.resolve(".kafka_cleanshutdown"), "{\"version\":0,\"brokerEpoch\":7}");
        return dir;
    }

    @Test
    void metadataLogActiveIndexesKeepTheirPreallocationAtCleanShutdown(@TempDir Path tmp) throws IOException {
        // Kafka 4.4.0 trims indexes at shutdown only for LogManager's logs; KafkaRaftLog.close() leaves them preallocated
        Path dir = cleanMetadataLog(tmp);
        append(dir.resolve(SEG100 + ".timeindex"), 12 * 100);
        append(dir.resolve(SEG100 + ".index"), 8 * 100);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir.getParent()));
        assertThat(findings).as("%s", findings).allMatch(f -> f.severity() == Severity.INFO);
        assertThat(findings).noneMatch(f -> f.violation() == Violation.INDEX_ZERO_TAIL);
        assertThat(findings).filteredOn(f -> f.violation() == Violation.INDEX_PREALLOCATED)
                .extracting(Finding::file, Finding::position, Finding::severity)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(dir.resolve(SEG100 + ".timeindex").toString(), 24L, Severity.INFO),
                        org.assertj.core.groups.Tuple.tuple(dir.resolve(SEG100 + ".index").toString(), 8L, Severity.INFO));
        assertThat(find(findings, Violation.INDEX_PREALLOCATED).message()).contains("KRaft metadata log");
    }

    @Test
    void zeroTailOfAClosedMetadataLogSegmentIsStillKafka10207(@TempDir Path tmp) throws IOException {
        // a rolled segment is trimmed (onBecomeInactiveSegment) in every log, the metadata log included
        Path dir = cleanMetadataLog(tmp);
        append(dir.resolve(SEG0 + ".timeindex"), 24);
        append(dir.resolve(SEG0 + ".index"), 16);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir.getParent()));
        assertThat(findings).filteredOn(f -> f.severity() != Severity.INFO)
                .extracting(Finding::file, Finding::position, Finding::violation, Finding::severity)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(dir.resolve(SEG0 + ".timeindex").toString(), 48L,
                                Violation.INDEX_ZERO_TAIL, Severity.WARNING),
                        org.assertj.core.groups.Tuple.tuple(dir.resolve(SEG0 + ".index").toString(), 32L,
                                Violation.INDEX_ZERO_TAIL, Severity.WARNING));
    }

    @Test
    void tornTailOfAClosedSegmentIsAnError(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        Path log = dir.resolve(SEG0 + ".log");
        byte[] b = Files.readAllBytes(log);
        Files.write(log, java.util.Arrays.copyOf(b, b.length - 10)); // the last batch starts at 252335
        Finding f = find(Verifier.verifyAll(FileEntry.of(dir)), Violation.TRUNCATED);
        assertThat(f.file()).isEqualTo(log.toString());
        assertThat(f.position()).isEqualTo(252335);
        assertThat(f.severity()).isEqualTo(Severity.ERROR);
        // the torn batch held 34..36; what followed it in the segment is lost too, up to the next segment's base
        assertThat(f.lostFrom()).isEqualTo(34);
        assertThat(f.lostTo()).isEqualTo(99);
        assertThat(f.message()).contains("offsets 34..99 are lost (up to the next segment's base offset 100; the torn batch held 34..36)");
    }

    @Test
    void txnIndexEntryWhoseMarkerIsNotAnAbortOfItsProducer(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        Path txn = dir.resolve(SEG0 + ".txnindex");
        byte[] b = Files.readAllBytes(txn);
        ByteBuffer.wrap(b).putLong(2, 6001L); // producer 6000 -> 6001
        Files.write(txn, b);
        Finding f = find(Verifier.verifyAll(FileEntry.of(dir)), Violation.TXN_MARKER_MISSING);
        assertThat(f.file()).isEqualTo(txn.toString());
        assertThat(f.position()).isZero();
        assertThat(f.severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void timeIndexTimestampMustBeTheBatchMaxTimestamp(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        Path time = dir.resolve(SEG0 + ".timeindex");
        byte[] b = Files.readAllBytes(time);
        ByteBuffer bb = ByteBuffer.wrap(b);
        bb.putLong(12, bb.getLong(12) + 1); // entry 1's timestamp, still increasing
        Files.write(time, b);
        Finding f = find(Verifier.verifyAll(FileEntry.of(dir)), Violation.INDEX_MISMATCH);
        assertThat(f.file()).isEqualTo(time.toString());
        assertThat(f.position()).isEqualTo(12);
        assertThat(f.message()).contains("maxTimestamp");
    }

    @Test
    void twoEmptySegmentsInConsumerOffsets(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("__consumer_offsets-7"));
        for (String base : List.of("00000000000000000000", "00000000000000000010", "00000000000000000020")) {
            Files.write(dir.resolve(base + ".log"), new byte[0]);
        }
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir));
        assertThat(findings).filteredOn(f -> f.violation() == Violation.EMPTY_SEGMENT)
                .extracting(Finding::severity).containsExactly(Severity.INFO, Severity.INFO, Severity.WARNING);
    }

    @Test
    void firstBatchBelowTheFileNameAndOffsetsGoingBack(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("t-0"));
        Path src = Corpus.synthetic().resolve("logdir/synthetic-mixed-0/" + SEG0 + ".log"); // offsets 0..18
        Files.copy(src, dir.resolve(SEG0 + ".log"));
        Files.copy(src, dir.resolve("00000000000000000010.log"));
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir));
        Finding base = find(findings, Violation.SEGMENT_BASE_OFFSET);
        assertThat(base.file()).endsWith("00000000000000000010.log");
        assertThat(base.position()).isZero();
        Finding order = find(findings, Violation.OFFSET_ORDER);
        assertThat(order.file()).endsWith("00000000000000000010.log");
        assertThat(order.position()).isZero();
    }

    @Test
    void relativeOffsetOverflow(@TempDir Path tmp) throws IOException {
        long far = (1L << 31) + 5;
        Path log = tmp.resolve(SEG0 + ".log");
        Files.write(log, bytes(v2Batch(far, 3)));
        Finding f = find(Verifier.verifyAll(FileEntry.of(log)), Violation.RELATIVE_OFFSET_OVERFLOW);
        assertThat(f.severity()).isEqualTo(Severity.WARNING);
        assertThat(f.baseOffset()).isEqualTo(far);
    }

    @Test
    void leaderEpochCheckpointOutOfOrder(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        // batches: epoch 0 from 0, 1 from 15, 2 from 28 (segment 0); 5 from 100, 7 from 105 (segment 100)
        Files.writeString(dir.resolve("leader-epoch-checkpoint"), "0\n3\n0 0\n2 28\n1 15\n", StandardCharsets.UTF_8);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir));
        Finding f = find(findings, Violation.LEADER_EPOCH_ORDER);
        assertThat(f.position()).isEqualTo(13);
        assertThat(f.severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void leaderEpochCheckpointMatchingTheBatchesIsClean(@TempDir Path tmp) throws IOException {
        Path dir = magic2(tmp);
        Files.writeString(dir.resolve("leader-epoch-checkpoint"), "0\n5\n0 0\n1 15\n2 28\n5 100\n7 105\n",
                StandardCharsets.UTF_8);
        assertThat(Verifier.verifyAll(FileEntry.of(dir))).allMatch(f -> f.severity() == Severity.INFO);
    }

    @Test
    void repeatedFindingsOfAFileAreCapped(@TempDir Path tmp) throws IOException {
        byte[] once = segment(150, 2);
        byte[] twice = java.util.Arrays.copyOf(once, once.length * 2);
        System.arraycopy(once, 0, twice, once.length, once.length); // the second copy goes back to offset 0
        Path log = tmp.resolve(SEG0 + ".log");
        Files.write(log, twice);
        List<Finding> findings = new java.util.ArrayList<>();
        Verifier v = new Verifier(ReaderOptions.defaults(), findings::add);
        v.verify(FileEntry.of(log));
        assertThat(findings).filteredOn(f -> f.violation() == Violation.OFFSET_ORDER).hasSize(Report.CAP + 1);
        assertThat(findings.get(findings.size() - 1).message()).startsWith("50 more offset-order findings");
        assertThat(v.stats().findings(Severity.ERROR)).isEqualTo(150);
    }

    /** The kinds table of package-info names every kind verify reports. */
    @Test
    void kindsTableIsComplete() throws IOException {
        String doc = Files.readString(Corpus.root().resolve("format/src/main/java/io/segscope/format/verify/package-info.java"));
        java.util.EnumSet<Violation> kinds = java.util.EnumSet.range(Violation.TRUNCATED, Violation.INVALID_CONTROL_RECORD);
        kinds.addAll(java.util.EnumSet.range(Violation.INDEX_SIZE, Violation.ORPHAN_INDEX));
        kinds.addAll(java.util.EnumSet.range(Violation.RESYNC, Violation.UNCLEAN_SHUTDOWN));
        kinds.add(Violation.NAME_FORMAT);
        kinds.add(Violation.IO_ERROR);
        for (Violation v : kinds) {
            assertThat(doc).as(v.kind()).contains("{@code " + v.kind() + "}");
        }
    }

    /** Constant memory: verifying twice as many records allocates no more. */
    @Test
    void allocatesNothingPerRecord(@TempDir Path tmp) throws IOException {
        Path small = tmp.resolve("a").resolve(SEG0 + ".log");
        Path large = tmp.resolve("b").resolve(SEG0 + ".log");
        Files.createDirectories(small.getParent());
        Files.createDirectories(large.getParent());
        Files.write(small, segment(100, 100));
        Files.write(large, segment(400, 100));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long[] bytes = new long[2];
        for (int round = 0; round < 30; round++) { // warm up, then the last round counts
            Path[] files = {small, large};
            for (int i = 0; i < 2; i++) {
                Verifier v = new Verifier(ReaderOptions.defaults(), f -> { });
                FileEntry e = FileEntry.of(files[i]);
                long before = threads.getThreadAllocatedBytes(tid);
                v.verify(e);
                bytes[i] = threads.getThreadAllocatedBytes(tid) - before;
                assertThat(v.stats().isClean()).isTrue();
            }
        }
        // 30,000 more records: even 1 byte each would show
        assertThat(bytes[1] - bytes[0]).as("small %d, large %d", bytes[0], bytes[1]).isLessThan(4096);
    }

    private static byte[] segment(int batches, int records) {
        ByteBuffer out = ByteBuffer.allocate(batches * (records * 40 + 100));
        for (int i = 0; i < batches; i++) {
            out.put(v2Batch((long) i * records, records));
        }
        return java.util.Arrays.copyOf(out.array(), out.position());
    }

    private static ByteBuffer v2Batch(long base, int records) {
        ByteBufferOutputStream stream = new ByteBufferOutputStream(256);
        MemoryRecordsBuilder b = new MemoryRecordsBuilder(stream, RecordBatch.MAGIC_VALUE_V2, Compression.NONE,
                TimestampType.CREATE_TIME, base, RecordBatch.NO_TIMESTAMP, RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, false, false, 0, Integer.MAX_VALUE);
        for (int r = 0; r < records; r++) {
            b.appendWithOffset(base + r, 1_700_000_000_000L + r, ("k" + r).getBytes(), ("value-" + r).getBytes());
        }
        return b.build().buffer();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
