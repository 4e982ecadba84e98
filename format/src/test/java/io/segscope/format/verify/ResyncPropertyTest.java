package io.segscope.format.verify;

import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testkit.Minimiser;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random damage to valid segments built by Kafka's own builder never crashes verify, and every
 * batch the damage did not touch is read again: none lies in a skipped range, and as many batches
 * are read as there are untouched ones (or more, when the damage left a batch valid, e.g. in the
 * partitionLeaderEpoch that no CRC covers).
 */
class ResyncPropertyTest {


    /**
     * Verifies the file, collecting its findings. Verify must not throw: if it does, the failure is
     * reported on a minimised copy of the file.
     */
    static Verifier verify(byte[] file, List<Finding> findings, Function<byte[], FileEntry> entry) {
        Verifier[] last = new Verifier[1];
        Minimiser.check(file, f -> {
            findings.clear();
            last[0] = new Verifier(ReaderOptions.defaults(), findings::add);
            last[0].verify(entry.apply(f));
        });
        return last[0];
    }

    @TestFactory
    Stream<DynamicTest> everyUntouchedBatchIsFoundAgain() {
        return Tries.of(20261130, 1000, gen -> everyUntouchedBatchIsFoundAgain(gen.random(), gen.intBetween(0, 3)));
    }

    private static void everyUntouchedBatchIsFoundAgain(Random rnd, int kind) {
        DamagedSegments.Built built = DamagedSegments.segment(rnd, 2 + rnd.nextInt(12));
        byte[] bytes = built.bytes().clone();
        DamagedSegments.Damage d = DamagedSegments.damage(rnd, bytes, kind);
        int length = d.truncated() ? d.from() : bytes.length;
        String name = String.format("%020d.log", built.batches().get(0).firstOffset());

        List<Finding> findings = new ArrayList<>();
        Verifier v = verify(Arrays.copyOf(bytes, length), findings, f -> new MemoryEntry(name, ByteBuffer.wrap(f)));

        List<DamagedSegments.Placed> untouched = new ArrayList<>();
        for (DamagedSegments.Placed b : built.batches()) {
            if (b.end() <= d.from() || b.position() >= d.to()) {
                untouched.add(b);
            }
        }
        for (DamagedSegments.Placed b : untouched) {
            for (Finding f : findings) {
                if (f.hasSkippedBytes()) {
                    assertThat(b.end() <= f.skippedFrom() || b.position() >= f.skippedTo())
                            .as("%s: batch at %d..%d skipped by %s", d.what(), b.position(), b.end(), f)
                            .isTrue();
                }
            }
        }
        // (more can be read: inner messages salvaged from a damaged wrapper count as entries)
        assertThat(v.stats().batches()).as(d.what() + " " + findings).isGreaterThanOrEqualTo(untouched.size());
        for (Finding f : findings) {
            if (f.violation() == Violation.RESYNC) {
                // good data resumes at an original entry, or inside a damaged legacy wrapper whose compressed bytes
                // hold inner messages literally (snappy, lz4): salvage, not a phantom
                DamagedSegments.Placed at = built.batches().stream()
                        .filter(b -> b.position() <= f.position() && f.position() < b.end()).findFirst()
                        .orElseThrow(() -> new AssertionError(d.what() + ": resync at " + f.position() + " past the end"));
                assertThat(at.position() == f.position() || at.position() < d.to() && at.end() > d.from())
                        .as("%s: resync at %d inside the untouched entry %s", d.what(), f.position(), at).isTrue();
                assertThat(f.position()).as(d.what()).isGreaterThan(f.skippedFrom());
                assertThat(f.skippedTo()).isEqualTo(f.position());
                if (f.hasLostOffsets() && at.position() == f.position() && at.position() >= d.to()) { // (damage may hit a baseOffset, which no CRC covers)
                    assertThat(f.lostTo()).as(d.what()).isEqualTo(at.firstOffset() - 1);
                }
            }
        }
        if (untouched.size() == built.batches().size()) {
            assertThat(findings).as(d.what()).noneMatch(f -> f.severity() == Severity.ERROR && f.hasSkippedBytes());
        }
    }

    @TestFactory
    Stream<DynamicTest> undamagedSegmentsAreClean() {
        return Tries.of(20261201, 100, gen -> undamagedSegmentsAreClean(gen.random()));
    }

    private static void undamagedSegmentsAreClean(Random rnd) {
        DamagedSegments.Built built = DamagedSegments.segment(rnd, 1 + rnd.nextInt(12));
        MemoryEntry entry = new MemoryEntry(String.format("%020d.log", built.batches().get(0).firstOffset()),
                ByteBuffer.wrap(built.bytes()));
        List<Finding> findings = Verifier.verifyAll(entry);
        assertThat(findings).isEmpty();
    }

    /** Through a forward-only stream (an archive entry) the same damage never crashes verify either. */
    @TestFactory
    Stream<DynamicTest> streamsNeverCrash() {
        return Tries.of(20261202, 300, gen -> streamsNeverCrash(gen.random(), gen.intBetween(0, 3)));
    }

    private static void streamsNeverCrash(Random rnd, int kind) {
        DamagedSegments.Built built = DamagedSegments.segment(rnd, 2 + rnd.nextInt(12));
        byte[] bytes = built.bytes().clone();
        DamagedSegments.Damage d = DamagedSegments.damage(rnd, bytes, kind);
        int length = d.truncated() ? d.from() : bytes.length;
        String name = String.format("%020d.log", built.batches().get(0).firstOffset());
        List<Finding> findings = new ArrayList<>();
        Verifier v = verify(Arrays.copyOf(bytes, length), findings, f -> new StreamEntry(name, f));
        long before = built.batches().stream().filter(b -> b.end() <= d.from()).count();
        assertThat(v.stats().batches()).as(d.what() + " " + findings).isGreaterThanOrEqualTo(before);
    }

    /** A file read through {@link io.segscope.format.io.StreamSource}, as archive entries are. */
    record StreamEntry(String name, byte[] bytes) implements io.segscope.format.logdir.FileEntry {
        @Override public String path() { return name; }
        @Override public boolean isDirectory() { return false; }
        @Override public long size() { return bytes.length; }
        @Override public List<io.segscope.format.logdir.FileEntry> children() { return List.of(); }
        @Override public io.segscope.format.io.ByteSource open() {
            return new io.segscope.format.io.StreamSource(new java.io.ByteArrayInputStream(bytes), name, 1 << 20);
        }
    }
}
