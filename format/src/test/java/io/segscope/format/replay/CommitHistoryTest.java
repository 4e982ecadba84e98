package io.segscope.format.replay;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link CommitHistory} on the 4.4.0 corpus: the last applied point is what the offsets replay committed; marks; the cap. */
class CommitHistoryTest {
    private static final Path LOGDIR = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");

    @Test
    void lastAppliedCommitIsTheReplaysOffset() throws IOException {
        int series = 0;
        try (Stream<Path> dirs = Files.list(LOGDIR)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("__consumer_offsets-")).sorted().toList()) {
                List<LogFile> files = OffsetsReplay.logFiles(dir);
                ReplayResult replay = OffsetsReplay.replay(files, AsOf.END);
                for (CommitHistory.Series s : CommitHistory.replay(files, List.of(), Long.MAX_VALUE, 400, ReaderOptions.defaults())) {
                    series++;
                    CommittedOffset committed = replay.offset(s.group(), s.topic(), s.partition());
                    CommitHistory.Point last = null;
                    for (CommitHistory.Point p : s.points()) {
                        if (p.mark() == CommitHistory.Mark.COMMIT || p.mark() == CommitHistory.Mark.RESET
                                || p.mark() == CommitHistory.Mark.TXN_COMMITTED) {
                            last = p;
                        } else if (p.mark() == CommitHistory.Mark.TOMBSTONE) {
                            last = null;
                        }
                    }
                    if (committed == null) {
                        assertThat(last).as("%s %s-%d", s.group(), s.topic(), s.partition()).isNull();
                    } else {
                        assertThat(last).as("%s %s-%d", s.group(), s.topic(), s.partition()).isNotNull();
                        assertThat(last.offset()).isEqualTo(committed.offset());
                    }
                }
            }
        }
        assertThat(series).isGreaterThan(50);
    }

    @Test
    void transactionalCommitsAreMarkedByTheirOutcome() {
        // the corpus' transactional producer: 2 committed and 2 aborted commits per partition for this group
        List<LogFile> files = OffsetsReplay.logFiles(LOGDIR.resolve("__consumer_offsets-41"));
        List<CommitHistory.Series> s = CommitHistory.replay(files, List.of("txn \"group\" 2"), Long.MAX_VALUE, 400, ReaderOptions.defaults());
        assertThat(s).extracting(CommitHistory.Series::topic).containsExactly("codec-none", "codec-none");
        for (CommitHistory.Series one : s) {
            assertThat(one.points()).extracting(CommitHistory.Point::mark).containsExactlyInAnyOrder(
                    CommitHistory.Mark.TXN_COMMITTED, CommitHistory.Mark.TXN_COMMITTED,
                    CommitHistory.Mark.TXN_ABORTED, CommitHistory.Mark.TXN_ABORTED);
        }
    }

    @Test
    void plainCommitsAreThinnedToTheCapKeepingTheLast() {
        List<LogFile> files = OffsetsReplay.logFiles(LOGDIR.resolve("__consumer_offsets-40"));
        ReplayResult replay = OffsetsReplay.replay(files, AsOf.END);
        List<CommitHistory.Series> all = CommitHistory.replay(files, List.of(), Long.MAX_VALUE, 1_000_000, ReaderOptions.defaults());
        List<CommitHistory.Series> capped = CommitHistory.replay(files, List.of(), Long.MAX_VALUE, 20, ReaderOptions.defaults());
        assertThat(capped).hasSameSizeAs(all);
        long thinned = 0;
        for (int i = 0; i < all.size(); i++) {
            CommitHistory.Series a = all.get(i);
            CommitHistory.Series c = capped.get(i);
            long plain = c.points().stream().filter(p -> p.mark() == CommitHistory.Mark.COMMIT).count();
            assertThat(plain).isLessThanOrEqualTo(20);
            assertThat(c.points().size() + c.dropped()).isEqualTo(a.points().size());
            thinned += c.dropped();
            assertThat(c.points().get(c.points().size() - 1)).isEqualTo(a.points().get(a.points().size() - 1));
            CommittedOffset committed = replay.offset(a.group(), a.topic(), a.partition());
            if (committed != null && a.points().size() > 100) {
                assertThat(c.dropped()).isPositive();
                assertThat(c.points().get(c.points().size() - 1).offset()).isEqualTo(committed.offset());
            }
        }
        assertThat(thinned).as("the busy groups' 160 rounds are thinned").isGreaterThan(100);
    }
}
