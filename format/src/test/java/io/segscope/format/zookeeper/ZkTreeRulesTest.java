package io.segscope.format.zookeeper;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay rules of ZooKeeper 3.9.5's DataTree where its source corrects the first summary
 * (docs/format.md 5.6): what a fuzzy snapshot's replay relies on.
 */
class ZkTreeRulesTest {
    private static final List<ZkAcl> READ = ZkAcl.READ;

    private static ZkTxn txn(long zxid, int type, ZkTxn.Body body) {
        return new ZkTxn(7, 1, zxid, 1000 + zxid, type, body, "log.1", zxid * 100);
    }

    private static ZkTxn.Create create(String path, List<ZkAcl> acl, int parentCVersion) {
        return new ZkTxn.Create(path, "d".getBytes(StandardCharsets.UTF_8), acl, false, parentCVersion, 0);
    }

    @Test
    void aCreateThatFindsItsNodeReplacesTheAclAndAdjustsTheParent() {
        ZkTree t = ZkTree.empty(ZkPathFilter.ALL);
        t.apply(txn(1, ZkTxn.CREATE, create("/a", ZkAcl.OPEN, -1)), 1 << 20);
        assertThat(t.node("/").cversion()).isEqualTo(1);
        t.apply(txn(2, ZkTxn.CREATE, create("/a", READ, 5)), 1 << 20);
        assertThat(t.node("/a").acl()).isEqualTo(READ);
        assertThat(t.node("/a").czxid()).isEqualTo(1);
        assertThat(t.node("/").cversion()).isEqualTo(5);
        assertThat(t.node("/").pzxid()).isEqualTo(2);
        // create2 (type 15) that finds its node: the ACL still replaced, the parent not adjusted
        t.apply(txn(3, ZkTxn.CREATE2, create("/a", ZkAcl.OPEN, 9)), 1 << 20);
        assertThat(t.node("/a").acl()).isEqualTo(ZkAcl.OPEN);
        assertThat(t.node("/").cversion()).isEqualTo(5);
    }

    @Test
    void aDeleteRaisesThePzxidEvenWhenTheNodeIsGoneAndNeverTheCversion() {
        ZkTree t = ZkTree.empty(ZkPathFilter.ALL);
        t.apply(txn(1, ZkTxn.CREATE, create("/a", ZkAcl.OPEN, -1)), 1 << 20);
        t.apply(txn(2, ZkTxn.DELETE, new ZkTxn.Delete("/a/missing")), 1 << 20);
        assertThat(t.node("/a").pzxid()).isEqualTo(2);
        assertThat(t.node("/a").cversion()).isZero();
        t.apply(txn(3, ZkTxn.DELETE, new ZkTxn.Delete("/a")), 1 << 20);
        assertThat(t.node("/a")).isNull();
        assertThat(t.node("/").cversion()).isEqualTo(1);
        assertThat(t.node("/").pzxid()).isEqualTo(3);
        assertThat(t.lastProcessedZxid()).isEqualTo(3);
    }

    @Test
    void theParentAdjustmentAppliesInsideAMultiAndAMultiStopsAtASubTypeItCannotRead() throws IOException {
        ZkTree t = ZkTree.empty(ZkPathFilter.ALL);
        t.apply(txn(1, ZkTxn.CREATE, create("/a", ZkAcl.OPEN, -1)), 1 << 20);
        ZkTxn multi = txn(2, ZkTxn.MULTI, new ZkTxn.Multi(List.of(
                new ZkTxn.Sub(ZkTxn.CREATE, createBody("/a", 7)),
                new ZkTxn.Sub(ZkTxn.CREATE, createBody("/b", -1)),
                new ZkTxn.Sub(ZkTxn.SET_ACL, new byte[8]),
                new ZkTxn.Sub(ZkTxn.CREATE, createBody("/c", -1)))));
        String stopped = t.apply(multi, 1 << 20);
        assertThat(stopped).contains("multi stopped").contains("setACL");
        assertThat(t.node("/b")).isNotNull();
        assertThat(t.node("/c")).isNull();
        // /a existed: the root's cversion went to 7 (inside the multi), then /b made it 8
        assertThat(t.node("/").cversion()).isEqualTo(8);
        assertThat(t.lastProcessedZxid()).isEqualTo(2);
    }

    @Test
    void aFailedMultiChangesNothing() throws IOException {
        ZkTree t = ZkTree.empty(ZkPathFilter.ALL);
        t.apply(txn(1, ZkTxn.MULTI, new ZkTxn.Multi(List.of(
                new ZkTxn.Sub(ZkTxn.CREATE, createBody("/x", -1)),
                new ZkTxn.Sub(ZkTxn.ERROR, new byte[]{0, 0, 0, 0})))), 1 << 20);
        assertThat(t.node("/x")).isNull();
        assertThat(t.node("/").cversion()).isZero();
    }

    @Test
    void closeSessionDeletesItsEphemeralsAndAFilteredTreeKeepsExactParentStats() {
        for (ZkPathFilter filter : List.of(ZkPathFilter.ALL, ZkPathFilter.subtrees(List.of("/keep")))) {
            ZkTree t = ZkTree.empty(filter);
            t.apply(txn(1, ZkTxn.CREATE_SESSION, new ZkTxn.CreateSession(10000)), 1 << 20);
            t.apply(txn(2, ZkTxn.CREATE, create("/keep", ZkAcl.OPEN, -1)), 1 << 20);
            t.apply(txn(3, ZkTxn.CREATE, new ZkTxn.Create("/eph", null, ZkAcl.OPEN, true, -1, 0)), 1 << 20);
            assertThat(t.sessionOpen(7)).isTrue();
            t.apply(txn(4, ZkTxn.CLOSE_SESSION, null), 1 << 20);
            assertThat(t.sessionOpen(7)).isFalse();
            assertThat(t.node("/").children()).as(filter.roots().toString()).containsExactly("keep", "zookeeper");
            assertThat(t.node("/").cversion()).isEqualTo(2);
            assertThat(t.node("/").pzxid()).isEqualTo(4);
        }
    }

    private static byte[] createBody(String path, int parentCVersion) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        d.writeInt(p.length);
        d.write(p);
        d.writeInt(-1);
        d.writeInt(0);
        d.writeBoolean(false);
        d.writeInt(parentCVersion);
        return b.toByteArray();
    }
}
