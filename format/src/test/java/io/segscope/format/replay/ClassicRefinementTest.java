package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.testkit.Tries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay refines a classic group's GroupMetadataValue (members' consumer protocol bytes) only
 * when it is read: what it then shows is what the eager decoder gives for the group's last
 * GroupMetadata record, members included.
 */
class ClassicRefinementTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> classicValuesAsTheEagerDecoderReadsThem() {
        return Tries.of(0x7e71e5L, 100, gen -> {
            RandomOffsetsLog log = new RandomOffsetsLog(gen);
            Path dir = Files.createTempDirectory(tmp, "t");
            List<LogFile> files = log.write(dir, log.events.size());
            ReplayResult r = OffsetsReplay.replay(files, AsOf.END);
            Map<String, StructValue> eager = lastGroupMetadata(files);
            for (ReplayedGroup g : r.groups().values()) {
                if (g.type() != GroupType.CLASSIC || g.isSimple()) {
                    continue;
                }
                StructValue v = eager.get(g.groupId());
                assertThat(g.classicValue()).isEqualTo(v);
                Map<String, StructValue> byId = new HashMap<>();
                for (Object o : (List<?>) v.get("members")) {
                    byId.put(((StructValue) o).getString("memberId"), (StructValue) o);
                }
                for (Member m : g.members().values()) {
                    assertThat(m.classic()).isEqualTo(byId.get(m.memberId()));
                    assertThat(m.subscription()).isEqualTo(byId.get(m.memberId()).get("subscription"));
                }
            }
        });
    }

    /** The last GroupMetadata value of each group, decoded (and refined) by the default decoder. */
    private static Map<String, StructValue> lastGroupMetadata(List<LogFile> files) {
        Map<String, StructValue> last = new HashMap<>();
        CoordinatorRecordDecoder decoder = CoordinatorRecordDecoder.consumerOffsets();
        new RecordWalk(ReaderOptions.defaults(), DecoderChoice.NONE, RecordFilter.ALL, Long.MAX_VALUE).walk(files,
                new RecordSink() {
                    @Override
                    public void record(LogFile f, Batch b, LogRecord rec, RecordContent content) {
                        if (b.isControl() || !rec.hasKey()) {
                            return;
                        }
                        if (decoder.decode(rec.buffer(), rec.keyOffset(), rec.keyLength(), rec.hasValue() ? rec.buffer() : null,
                                rec.valueOffset(), rec.valueLength()) instanceof Decoded d && d.recordType() == 2) {
                            last.put(d.ownerId(), d.value());
                        }
                    }
                });
        return last;
    }
}
