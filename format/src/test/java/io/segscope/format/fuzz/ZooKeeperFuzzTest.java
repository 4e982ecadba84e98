package io.segscope.format.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.format.error.FormatException;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.zookeeper.ZkKafka;
import io.segscope.format.zookeeper.ZkPathFilter;
import io.segscope.format.zookeeper.ZkRestore;
import io.segscope.format.zookeeper.ZkTxn;
import io.segscope.format.zookeeper.ZkTxnLog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fuzzer's bytes as a ZooKeeper data dir's files (format/FUZZING.md): a snapshot (plain, and
 * gzip-compressed as {@code .gz}) and a transaction log, restored as {@code zk-offsets} and
 * {@code zk-tree} restore them ({@link ZkRestore}, every node and Kafka's paths only, checksums on
 * and off so that the parsers behind the Adler32 are reached) and read by {@link ZkKafka}. The
 * outcome: a result, its damage among the findings; anything thrown is a finding.
 */
class ZooKeeperFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void snapshot(byte[] bytes) {
        restore(Map.of("version-2/snapshot.10", bytes));
        restore(Map.of("version-2/snapshot.10.gz", gzip(bytes)));
        restore(Map.of("version-2/snapshot.10.gz", bytes));
    }

    @FuzzTest(maxDuration = "30s")
    void log(byte[] bytes) {
        restore(Map.of("version-2/log.1", bytes));
        try (ZkTxnLog log = ZkTxnLog.open(Fuzzed.tree("zk", Map.of("log.1", bytes)).children().get(0), false)) {
            ZkTxn t;
            while ((t = log.next()) != null) {
                assertThat(t.file()).isNotNull();
            }
            assertThat(log.end()).isNotNull();
        } catch (FormatException expected) {
            assertThat(expected.problem().kind().kind()).startsWith("zk-");
        }
    }

    private static void restore(Map<String, byte[]> files) {
        FileEntry root = Fuzzed.tree("zk", new LinkedHashMap<>(files));
        for (boolean checksums : new boolean[]{true, false}) {
            for (ZkPathFilter filter : List.of(ZkPathFilter.ALL, ZkKafka.PATHS)) {
                ZkRestore.Result r = ZkRestore.restore(List.of(root), new ZkRestore.Options(filter, -1, Long.MIN_VALUE, checksums));
                r.findings().forEach(f -> assertThat(f.problem().kind().kind()).startsWith("zk-"));
                ZkKafka.read(r.tree());
                r.tree().nodesByPath();
            }
        }
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
