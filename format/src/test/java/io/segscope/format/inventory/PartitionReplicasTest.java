package io.segscope.format.inventory;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.salvage.KafkaLoad;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replica divergence: copies of one corpus partition cut at different offsets and given different
 * leader-epoch histories, compared as Kafka's follower truncation would.
 */
class PartitionReplicasTest {
    private static final Path SOURCE = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/codec-none-0");

    /** Copies the partition into {@code root/codec-none-0}, cut after the first batch ending at or past {@code keep} offsets, with these epochs. */
    private static PartitionDir replica(Path root, long keep, String epochs) throws IOException {
        Path dir = root.resolve("codec-none-0");
        KafkaLoad.copy(SOURCE, dir);
        Path log = dir.resolve("00000000000000000000.log");
        long cut = -1;
        try (ByteSource src = MappedSource.open(log); BatchReader r = new BatchReader(src, ReaderOptions.defaults())) {
            while (r.next()) {
                if (r.batch().nextOffset() >= keep) {
                    cut = r.position() + r.batch().sizeInBytes();
                    break;
                }
            }
        }
        if (cut >= 0) {
            try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
                f.setLength(cut);
            }
        }
        String[] e = epochs.split(",");
        StringBuilder sb = new StringBuilder("0\n" + e.length + "\n");
        for (String x : e) {
            sb.append(x.replace("@", " ")).append('\n');
        }
        Files.writeString(dir.resolve("leader-epoch-checkpoint"), sb.toString());
        return PartitionDir.of(FileEntry.of(dir));
    }

    private static ReplicaState scan(PartitionDir d) {
        return new ReplicaScanner(ReaderOptions.defaults(), false).scan(d, LogDirContext.NONE, null);
    }

    @Test
    void behindDivergedAndInSync(@TempDir Path tmp) throws IOException {
        // the leader: every record, epochs 0 from 0 and 3 from 20
        ReplicaState leader = scan(replica(tmp.resolve("a"), Long.MAX_VALUE, "0@0,3@20"));
        long end = leader.logEndOffset();
        assertThat(end).isGreaterThan(30);
        // a follower of epoch 3 cut short: a prefix
        ReplicaState behind = scan(replica(tmp.resolve("b"), 25, "0@0,3@20"));
        // an old leader that went on in epoch 0 past offset 20: the records from 20 are not the leader's
        ReplicaState diverged = scan(replica(tmp.resolve("c"), 30, "0@0"));
        // an in-sync copy
        ReplicaState same = scan(replica(tmp.resolve("d"), Long.MAX_VALUE, "0@0,3@20"));
        PartitionReplicas p = PartitionReplicas.of(List.of(diverged, behind, leader, same));
        assertThat(p.mostAdvanced()).isEqualTo(2);
        List<String> kinds = new ArrayList<>();
        p.standing().forEach(d -> kinds.add(d.kind() + " " + d.offset()));
        assertThat(kinds).containsExactly("diverged 20", "behind " + behind.logEndOffset(), "most-advanced " + end, "in-sync " + end);
        assertThat(p.standing().get(0).records()).isEqualTo(diverged.logEndOffset() - 20);
        assertThat(p.standing().get(0).reason()).contains("truncate this replica to 20");
        assertThat(p.standing().get(1).records()).isEqualTo(end - behind.logEndOffset());
        assertThat(p.differs()).isTrue();
        // the newer epoch wins even with fewer records
        ReplicaState shortNew = scan(replica(tmp.resolve("e"), 22, "0@0,4@20"));
        PartitionReplicas q = PartitionReplicas.of(List.of(leader, shortNew));
        assertThat(q.mostAdvanced()).isEqualTo(1);
        assertThat(q.standing().get(0).kind()).isEqualTo(Divergence.DIVERGED);
        assertThat(q.standing().get(0).offset()).isEqualTo(20);
        // the same epochs and end: nothing to report
        assertThat(PartitionReplicas.of(List.of(leader, same)).differs()).isFalse();
    }
}
