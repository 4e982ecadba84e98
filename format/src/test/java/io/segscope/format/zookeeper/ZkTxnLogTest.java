package io.segscope.format.zookeeper;

import io.segscope.format.error.FormatException;
import io.segscope.format.logdir.FileEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Adler32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hand-made logs for each way ZooKeeper's iterator ends or refuses an entry (docs/format.md 5.5). */
class ZkTxnLogTest {
    @TempDir
    Path dir;

    private static byte[] header(long clientId, long zxid, int type) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeLong(clientId);
        d.writeInt(1);
        d.writeLong(zxid);
        d.writeLong(1_700_000_000_000L + zxid);
        d.writeInt(type);
        return b.toByteArray();
    }

    private static byte[] create(long zxid, String path, String data, boolean v0) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.write(header(5, zxid, ZkTxn.CREATE));
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        d.writeInt(p.length);
        d.write(p);
        byte[] v = data.getBytes(StandardCharsets.UTF_8);
        d.writeInt(v.length);
        d.write(v);
        d.writeInt(1);
        d.writeInt(31);
        d.writeInt(5);
        d.writeBytes("world");
        d.writeInt(6);
        d.writeBytes("anyone");
        d.writeBoolean(false);
        if (!v0) {
            d.writeInt(-1);
        }
        return b.toByteArray();
    }

    /** An entry: checksum, length, payload, 'B'. */
    private static byte[] entry(byte[] payload, boolean goodChecksum, byte end) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        Adler32 a = new Adler32();
        a.update(payload);
        d.writeLong(goodChecksum ? a.getValue() : a.getValue() ^ 1);
        d.writeInt(payload.length);
        d.write(payload);
        d.writeByte(end);
        return b.toByteArray();
    }

    private FileEntry log(byte[]... parts) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeInt(ZkTxnLog.MAGIC);
        d.writeInt(2);
        d.writeLong(0);
        for (byte[] p : parts) {
            d.write(p);
        }
        Path f = dir.resolve("log.1");
        Files.write(f, b.toByteArray());
        return FileEntry.of(f);
    }

    private static List<ZkTxn> all(ZkTxnLog log) {
        List<ZkTxn> out = new ArrayList<>();
        ZkTxn t;
        while ((t = log.next()) != null) {
            out.add(t);
        }
        return out;
    }

    @Test
    void zerosAfterTheLastEntryEndTheLog() throws IOException {
        try (ZkTxnLog log = ZkTxnLog.open(log(entry(create(1, "/a", "1", false), true, (byte) 'B'), new byte[4096]), true)) {
            assertThat(all(log)).hasSize(1);
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.END);
            assertThat(log.end().problem()).isNull();
            assertThat(log.end().position()).isEqualTo(16 + 12 + create(1, "/a", "1", false).length + 1);
        }
    }

    @Test
    void aTornOrUnmarkedLastEntryIsATornWrite() throws IOException {
        byte[] good = entry(create(1, "/a", "1", false), true, (byte) 'B');
        byte[] second = entry(create(2, "/b", "2", false), true, (byte) 'B');
        byte[] cut = java.util.Arrays.copyOf(second, second.length - 5);
        try (ZkTxnLog log = ZkTxnLog.open(log(good, cut), true)) {
            assertThat(all(log)).hasSize(1);
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.TORN);
            assertThat(log.end().problem().kind().kind()).isEqualTo("zk-truncated");
            assertThat(log.end().position()).isEqualTo(16 + good.length);
        }
        try (ZkTxnLog log = ZkTxnLog.open(log(good, entry(create(2, "/b", "2", false), true, (byte) 'X')), true)) {
            assertThat(all(log)).hasSize(1);
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.TORN);
            assertThat(log.end().problem().note()).contains("Last transaction was partial");
        }
    }

    @Test
    void checksumMismatchStopsUnlessChecksumsAreOff() throws IOException {
        byte[] bad = entry(create(1, "/a", "1", false), false, (byte) 'B');
        try (ZkTxnLog log = ZkTxnLog.open(log(bad), true)) {
            assertThat(all(log)).isEmpty();
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.DAMAGE);
            assertThat(log.end().problem().kind().kind()).isEqualTo("zk-checksum");
            assertThat(log.end().problem().position()).isEqualTo(16);
        }
        try (ZkTxnLog log = ZkTxnLog.open(log(bad), false)) {
            assertThat(log.next()).isNotNull();
            assertThat(log.takeIgnoredChecksum().kind().kind()).isEqualTo("zk-checksum");
        }
    }

    @Test
    void unreasonableLengthIsDamageAndAllocatesNothing() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeLong(0);
        d.writeInt(Integer.MAX_VALUE);
        try (ZkTxnLog log = ZkTxnLog.open(log(b.toByteArray()), true)) {
            assertThat(log.next()).isNull();
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.DAMAGE);
            assertThat(log.end().problem().note()).contains("Unreasonable length = 2147483647");
        }
        // a length within the limit but past the data: a torn write, read without allocating the length
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        DataOutputStream e = new DataOutputStream(c);
        e.writeLong(0);
        e.writeInt(ZkTxnLog.MAX_ENTRY);
        e.write(new byte[100]);
        try (ZkTxnLog log = ZkTxnLog.open(log(c.toByteArray()), true)) {
            assertThat(log.next()).isNull();
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.TORN);
        }
    }

    @Test
    void oldBodiesReadAsZooKeeperReadsThem() throws IOException {
        byte[] v0 = entry(create(1, "/old", "x", true), true, (byte) 'B');
        byte[] close = entry(header(5, 2, ZkTxn.CLOSE_SESSION), true, (byte) 'B');
        try (ZkTxnLog log = ZkTxnLog.open(log(v0, close), true)) {
            List<ZkTxn> txns = all(log);
            assertThat(txns).hasSize(2);
            assertThat(((ZkTxn.Create) txns.get(0).body()).parentCVersion()).isEqualTo(-1);
            assertThat(((ZkTxn.Create) txns.get(0).body()).path()).isEqualTo("/old");
            assertThat(txns.get(1).type()).isEqualTo(ZkTxn.CLOSE_SESSION);
            assertThat(txns.get(1).body()).isNull();
        }
    }

    @Test
    void anOpCodeZooKeeperDoesNotLogIsDamage() throws IOException {
        try (ZkTxnLog log = ZkTxnLog.open(log(entry(header(5, 1, 99), true, (byte) 'B')), true)) {
            assertThat(log.next()).isNull();
            assertThat(log.end().kind()).isEqualTo(ZkTxnLog.EndKind.DAMAGE);
            assertThat(log.end().problem().kind().kind()).isEqualTo("zk-invalid-record");
            assertThat(log.end().problem().actual()).isEqualTo("99");
        }
    }

    @Test
    void aWrongMagicIsAHeaderProblem() throws IOException {
        Path f = dir.resolve("log.5");
        Files.write(f, new byte[]{0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0});
        assertThatThrownBy(() -> ZkTxnLog.open(FileEntry.of(f), true)).isInstanceOf(FormatException.class)
                .hasMessageContaining("zk-header").hasMessageContaining("log.5");
    }

    @Test
    void juteLengthsNeverAllocatePastTheData() {
        byte[] b = {0x7f, (byte) 0xff, (byte) 0xff, 0x00, 1, 2, 3};
        JuteInput in = JuteInput.of(new java.io.ByteArrayInputStream(b), "x", true);
        assertThatThrownBy(() -> in.readBuffer(Integer.MAX_VALUE)).isInstanceOf(JuteInput.JuteException.class)
                .hasMessageContaining("ends after 3");
        JuteInput nul = JuteInput.of(new byte[]{-1, -1, -1, -1, 0, 0, 0, 0}, 0, 8, "y", 100);
        assertThat(nul.readBuffer(10)).isNull();
        assertThat(nul.readBuffer(10)).isEmpty();
        assertThat(nul.position()).isEqualTo(108);
        JuteInput neg = JuteInput.of(new byte[]{-1, -1, -1, -2}, 0, 4, "z", 0);
        assertThatThrownBy(() -> neg.readString(10)).hasMessageContaining("Unreasonable length = -2");
    }
}
