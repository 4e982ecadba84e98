package io.segscope.format.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Kafka kept in ZooKeeper (docs/format.md 5.1), read from a restored {@link ZkTree}: the old
 * consumers' groups (offsets with mtime, mzxid and version; owners and registered consumers with
 * whether their session is still open) and the cluster (topics with assignments, topic ids and
 * configs, pending deletions, brokers, the controller and its epoch, the cluster id).
 */
public final class ZkKafka {
    /** The paths zk-offsets keeps. */
    public static final ZkPathFilter PATHS = ZkPathFilter.subtrees(List.of("/consumers", "/brokers", "/config/topics",
            "/controller", "/controller_epoch", "/admin/delete_topics", "/cluster"));

    /**
     * One committed offset znode {@code /consumers/<group>/offsets/<topic>/<partition>}.
     *
     * @param value the znode's text (null for null data)
     * @param offset the decimal value, or null when it is not one ({@code note} says what it is)
     * @param partitionNumber the partition, or -1 when the name is not a number (a 0.7 {@code broker-partition} name)
     */
    public record Offset(String group, String topic, String partition, int partitionNumber, String value, Long offset,
                         String note, long mtime, long mzxid, int version, String path) {
    }

    /** An owner znode {@code /consumers/<group>/owners/<topic>/<partition>}: the consumer thread. */
    public record Owner(String group, String topic, String partition, String owner, long session, boolean sessionOpen) {
    }

    /** A registered consumer {@code /consumers/<group>/ids/<id>}. */
    public record Consumer(String group, String id, String registration, long session, boolean sessionOpen, long ctime) {
    }

    /** A topic: partition -> replicas, its id when the broker wrote one, its config overrides. */
    public record Topic(String name, Map<Integer, List<Integer>> assignment, String topicId, Map<String, String> config,
                        boolean pendingDeletion) {
    }

    public record Broker(int id, String registration, long session, boolean sessionOpen) {
    }

    /** Everything read; {@code controller} -1 when none. */
    public record View(List<Offset> offsets, List<Owner> owners, List<Consumer> consumers, Map<String, Topic> topics,
                       List<Broker> brokers, int controller, Integer controllerEpoch, String clusterId) {
        /** The group ids found under {@code /consumers}, sorted. */
        public List<String> groups() {
            java.util.TreeSet<String> g = new java.util.TreeSet<>();
            offsets.forEach(o -> g.add(o.group()));
            owners.forEach(o -> g.add(o.group()));
            consumers.forEach(o -> g.add(o.group()));
            return List.copyOf(g);
        }
    }

    private ZkKafka() {
    }

    static String text(ZkNode n) {
        return n == null || n.data() == null ? null : new String(n.data(), StandardCharsets.UTF_8);
    }

    public static View read(ZkTree tree) {
        List<Offset> offsets = new ArrayList<>();
        List<Owner> owners = new ArrayList<>();
        List<Consumer> consumers = new ArrayList<>();
        ZkNode consumersNode = tree.node("/consumers");
        if (consumersNode != null) {
            for (String g : consumersNode.children()) {
                String gp = "/consumers/" + g;
                ZkNode offs = tree.node(gp + "/offsets");
                if (offs != null) {
                    for (String t : offs.children()) {
                        ZkNode tn = tree.node(gp + "/offsets/" + t);
                        if (tn == null) {
                            continue;
                        }
                        for (String p : tn.children()) {
                            String path = gp + "/offsets/" + t + "/" + p;
                            ZkNode n = tree.node(path);
                            if (n != null) {
                                offsets.add(offset(g, t, p, n, path));
                            }
                        }
                    }
                }
                ZkNode own = tree.node(gp + "/owners");
                if (own != null) {
                    for (String t : own.children()) {
                        ZkNode tn = tree.node(gp + "/owners/" + t);
                        if (tn == null) {
                            continue;
                        }
                        for (String p : tn.children()) {
                            ZkNode n = tree.node(gp + "/owners/" + t + "/" + p);
                            if (n != null) {
                                owners.add(new Owner(g, t, p, text(n), n.ephemeralOwner(), tree.sessionOpen(n.ephemeralOwner())));
                            }
                        }
                    }
                }
                ZkNode ids = tree.node(gp + "/ids");
                if (ids != null) {
                    for (String id : ids.children()) {
                        ZkNode n = tree.node(gp + "/ids/" + id);
                        if (n != null) {
                            consumers.add(new Consumer(g, id, text(n), n.ephemeralOwner(), tree.sessionOpen(n.ephemeralOwner()), n.ctime()));
                        }
                    }
                }
            }
        }
        Map<String, Topic> topics = new TreeMap<>();
        ZkNode del = tree.node("/admin/delete_topics");
        java.util.Set<String> deleting = del == null ? java.util.Set.of() : del.children();
        ZkNode bt = tree.node("/brokers/topics");
        if (bt != null) {
            for (String t : bt.children()) {
                Object json = ZkJson.parse(text(tree.node("/brokers/topics/" + t)));
                Map<Integer, List<Integer>> assignment = new TreeMap<>();
                for (Map.Entry<?, ?> e : ZkJson.object(ZkJson.object(json).get("partitions")).entrySet()) {
                    try {
                        int p = Integer.parseInt(String.valueOf(e.getKey()));
                        List<Integer> replicas = new ArrayList<>();
                        if (e.getValue() instanceof List<?> l) {
                            for (Object o : l) {
                                if (o instanceof Long v) {
                                    replicas.add(v.intValue());
                                }
                            }
                        }
                        assignment.put(p, replicas);
                    } catch (NumberFormatException ex) {
                        // not a partition number: left out
                    }
                }
                Object id = ZkJson.object(json).get("topic_id");
                topics.put(t, new Topic(t, assignment, id instanceof String s ? s : null, config(tree, t), deleting.contains(t)));
            }
        }
        for (String t : deleting) {
            topics.putIfAbsent(t, new Topic(t, Map.of(), null, config(tree, t), true));
        }
        List<Broker> brokers = new ArrayList<>();
        ZkNode bids = tree.node("/brokers/ids");
        if (bids != null) {
            for (String b : bids.children()) {
                ZkNode n = tree.node("/brokers/ids/" + b);
                try {
                    if (n != null) {
                        brokers.add(new Broker(Integer.parseInt(b), text(n), n.ephemeralOwner(), tree.sessionOpen(n.ephemeralOwner())));
                    }
                } catch (NumberFormatException e) {
                    // not a broker id
                }
            }
        }
        brokers.sort(java.util.Comparator.comparingInt(Broker::id));
        int controller = -1;
        Object c = ZkJson.object(ZkJson.parse(text(tree.node("/controller")))).get("brokerid");
        if (c instanceof Long l) {
            controller = l.intValue();
        }
        Integer epoch = null;
        String e = text(tree.node("/controller_epoch"));
        if (e != null) {
            try {
                epoch = Integer.parseInt(e.trim());
            } catch (NumberFormatException ex) {
                epoch = null;
            }
        }
        Object cid = ZkJson.object(ZkJson.parse(text(tree.node("/cluster/id")))).get("id");
        return new View(offsets, owners, consumers, topics, brokers, controller, epoch, cid instanceof String s ? s : null);
    }

    private static Map<String, String> config(ZkTree tree, String topic) {
        Map<String, String> out = new LinkedHashMap<>();
        Object json = ZkJson.parse(text(tree.node("/config/topics/" + topic)));
        for (Map.Entry<?, ?> en : ZkJson.object(ZkJson.object(json).get("config")).entrySet()) {
            out.put(String.valueOf(en.getKey()), String.valueOf(en.getValue()));
        }
        return out;
    }

    private static Offset offset(String group, String topic, String partition, ZkNode n, String path) {
        String value = text(n);
        int number = -1;
        String note = null;
        try {
            number = Integer.parseInt(partition);
            if (number < 0 || !Integer.toString(number).equals(partition)) {
                number = -1;
            }
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 0) {
            note = partition.matches("\\d+-\\d+") ? "a Kafka 0.7 partition name (broker-partition)" : "partition name is not a number";
        }
        Long offset = null;
        if (value == null) {
            note = join(note, "null data");
        } else if (value.isEmpty()) {
            note = join(note, "empty data");
        } else {
            try {
                offset = Long.parseLong(value);
                if (offset == -1) {
                    note = join(note, "-1: the consumer's \"no offset\"");
                }
            } catch (NumberFormatException e) {
                note = join(note, "not a decimal offset");
            }
        }
        return new Offset(group, topic, partition, number, value, offset, note, n.mtime(), n.mzxid(), n.version(), path);
    }

    private static String join(String a, String b) {
        return a == null ? b : a + "; " + b;
    }
}
