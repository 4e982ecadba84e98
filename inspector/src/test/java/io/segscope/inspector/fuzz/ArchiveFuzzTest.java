package io.segscope.inspector.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.inspector.input.ArchiveTree;

import java.nio.file.Path;
import java.util.List;

/**
 * Archives of log dirs from the fuzzer (format/FUZZING.md), given to the inspector's archive input
 * ({@link ArchiveTree}) and to the commands that read log dirs inside one ({@code verify},
 * {@code dump}, in this JVM through the command line's entry point; {@link ArchiveReading}). The
 * outcome: a result or segscope's typed problem; anything else, a file written or read outside
 * the archive, an OutOfMemoryError or a hang is a finding.
 *
 * <p>{@link #tar}, {@link #tarGz} and {@link #zip} take the bytes as the archive file (seeds: small
 * log dirs of the corpus archived by tar, gzip and zip); {@link #structured} builds archives meant
 * to attack the reader ({@link HostileArchive}: names that climb out, links, duplicates, huge
 * declared sizes, deep nesting, many entries), and compacts them too.
 */
class ArchiveFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void tar(byte[] bytes) {
        ArchiveReading.read(ArchiveReading.write(bytes, "a.tar").get(0), false);
    }

    /** The same bytes as a {@code .tar.gz} and as a {@code .tgz}. */
    @FuzzTest(maxDuration = "30s")
    void tarGz(byte[] bytes) {
        for (Path p : ArchiveReading.write(bytes, "a.tar.gz", "a.tgz")) {
            ArchiveReading.read(p, false);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void zip(byte[] bytes) {
        ArchiveReading.read(ArchiveReading.write(bytes, "a.zip").get(0), false);
    }

    @FuzzTest(maxDuration = "30s")
    void structured(FuzzedDataProvider data) {
        HostileArchive.Kind kind = data.pickValue(HostileArchive.Kind.values());
        List<HostileArchive.Entry> entries = HostileArchive.entries(data);
        byte[] bytes;
        try {
            bytes = HostileArchive.build(kind, entries);
        } catch (RuntimeException e) {
            return; // an archive the writer refuses to make (the fuzzer's problem, not the reader's)
        }
        ArchiveReading.read(ArchiveReading.write(bytes, kind.file).get(0), true);
    }
}
