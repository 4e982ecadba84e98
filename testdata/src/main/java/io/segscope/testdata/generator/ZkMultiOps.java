package io.segscope.testdata.generator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * {@link ZkWorkload}'s multi-ops (ZooKeeper 3.4+): in a class of their own so that a 3.3 client,
 * which has no {@code multi}, never loads them.
 */
final class ZkMultiOps {
    private ZkMultiOps() {
    }

    /**
     * One group's offsets committed in one multi: two setData on {@code orders}, the first offset
     * of a topic the group had none for (its parent znode and the partition, two creates), and a
     * check on the group's offsets znode.
     */
    static void commits(ZkWorkload w, ZooKeeper zk, String group, String newTopic) throws Exception {
        String base = "/consumers/" + group + "/offsets/";
        List<Object[]> ops = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            String path = base + "orders/" + p;
            long v = Long.parseLong(new String(zk.getData(path, false, null), StandardCharsets.UTF_8)) + 1000 + p;
            ops.add(new Object[] {"setData", path, Long.toString(v), -1});
        }
        ops.add(new Object[] {"create", base + newTopic, null, -1});
        ops.add(new Object[] {"create", base + newTopic + "/0", "5", -1});
        ops.add(new Object[] {"check", "/consumers/" + group + "/offsets", -1, -1});
        run(w, zk, ops);
    }

    /** A multi that fails on its check: nothing of it is applied, but it still uses a zxid. */
    static void failing(ZkWorkload w, ZooKeeper zk) throws Exception {
        String g = "/consumers/" + ZkWorkload.GROUPS[0] + "/offsets/orders/";
        List<Object[]> ops = new ArrayList<>();
        ops.add(new Object[] {"setData", g + "0", "999999999", -1});
        ops.add(new Object[] {"create", g + "99", "1", -1});
        ops.add(new Object[] {"check", g + "1", 12345, -1});
        ops.add(new Object[] {"delete", g + "2", -1, -1});
        run(w, zk, ops);
    }

    private static void run(ZkWorkload w, ZooKeeper zk, List<Object[]> spec) throws Exception {
        Map<String, Object> rec = w.write("multi", zk, null);
        List<Op> ops = new ArrayList<>();
        List<Map<String, Object>> described = new ArrayList<>();
        for (Object[] o : spec) {
            Map<String, Object> d = new LinkedHashMap<>();
            String kind = (String) o[0];
            String path = (String) o[1];
            d.put("op", kind);
            d.put("path", path);
            switch (kind) {
                case "setData" -> {
                    byte[] b = ((String) o[2]).getBytes(StandardCharsets.UTF_8);
                    d.put("data", ZkWorkload.data(b));
                    d.put("expectedVersion", o[3]);
                    ops.add(Op.setData(path, b, (Integer) o[3]));
                }
                case "create" -> {
                    byte[] b = o[2] == null ? null : ((String) o[2]).getBytes(StandardCharsets.UTF_8);
                    d.put("mode", CreateMode.PERSISTENT.name());
                    d.put("data", ZkWorkload.data(b));
                    ops.add(Op.create(path, b, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                }
                case "check" -> {
                    d.put("expectedVersion", o[2]);
                    ops.add(Op.check(path, (Integer) o[2]));
                }
                case "delete" -> {
                    d.put("expectedVersion", o[2]);
                    ops.add(Op.delete(path, (Integer) o[2]));
                }
                default -> throw new IllegalArgumentException(kind);
            }
            described.add(d);
        }
        rec.put("ops", described);
        try {
            List<OpResult> results = zk.multi(ops);
            Long zxid = null;
            Long time = null;
            for (int i = 0; i < results.size(); i++) {
                OpResult r = results.get(i);
                if (r instanceof OpResult.SetDataResult sr) {
                    Stat s = sr.getStat();
                    zxid = s.getMzxid();
                    time = s.getMtime();
                } else if (r instanceof OpResult.CreateResult cr && zxid == null) {
                    Stat s = zk.exists(cr.getPath(), false);
                    zxid = s.getCzxid();
                    time = s.getCtime();
                }
            }
            ZkWorkload.ok(rec, zxid, time);
        } catch (KeeperException e) {
            ZkWorkload.failed(rec, e);
        }
    }
}
