package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testdata.Corpus;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicasTest {
    @TempDir
    Path tmp;

    /** The busy partition of the plain run, copied three times; one copy loses its last batch. */
    @Test
    void choosesTheLongestCopyOfTheLastEpochAndReportsTheShortOne() throws IOException {
        Path source = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-40");
        Path a = copy(source, tmp.resolve("a/__consumer_offsets-40"));
        Path b = copy(source, tmp.resolve("b/__consumer_offsets-40"));
        Path c = copy(source, tmp.resolve("c/__consumer_offsets-40"));
        Replicas.Replica full = Replicas.read(a);
        Path lastLog;
        try (Stream<Path> s = Files.list(b)) {
            lastLog = s.filter(p -> p.toString().endsWith(".log")).sorted().reduce((x, y) -> y).orElseThrow();
        }
        long size = Files.size(lastLog);
        try (FileChannel ch = FileChannel.open(lastLog, StandardOpenOption.WRITE)) {
            ch.truncate(size - 1); // a torn last batch: lost on recovery
        }
        Replicas.Choice choice = Replicas.choose(List.of(b, a, c));
        assertThat(choice.chosen().dir()).isEqualTo(a);
        assertThat(choice.chosen().logEndOffset()).isEqualTo(full.logEndOffset()).isEqualTo(1303);
        assertThat(choice.divergent()).extracting(Replicas.Replica::dir).containsExactly(b);
        assertThat(choice.divergent().get(0).logEndOffset()).isLessThan(full.logEndOffset());
        // the chosen copy replays as admin.json reports (CorpusReplayTest), and so does its twin
        assertThat(KafkaCoordinatorOracleTest.offsets(OffsetsReplay.replay(OffsetsReplay.logFiles(c), AsOf.END)))
                .isEqualTo(KafkaCoordinatorOracleTest.offsets(OffsetsReplay.replay(OffsetsReplay.logFiles(a), AsOf.END)));
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }
}
