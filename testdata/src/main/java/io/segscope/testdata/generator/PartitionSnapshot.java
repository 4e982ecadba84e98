package io.segscope.testdata.generator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsOptions;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult;
import org.apache.kafka.clients.admin.DescribeTransactionsOptions;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.TopicPartitionReplica;

/**
 * The partition-level half of {@link AdminSnapshot}: what the Admin API reports about every
 * partition's offsets, replicas' log dirs, producers, the transactions and each group's lag, for
 * segscope's {@code partitions}, {@code lag} and {@code transactions} commands to be checked
 * against. Every call that a stopped broker cannot answer is recorded as
 * {@code {"error": "<exception class>"}} in place of its result, never left out. Log dir paths are
 * reported relative to the run ({@code logdir}, {@code logdirs/broker-2}).
 *
 * <p>{@code describeProducers} with {@code DescribeProducersOptions.brokerId} is made by a new Admin
 * client for each broker: a 4.4.0 client that has looked up partition leaders before (any
 * {@code listOffsets}) sends it to the cached leader whatever broker id the options name
 * ({@code PartitionLeaderStrategy.PartitionLeaderFuture.cachedKeyBrokerIdMapping} comes before
 * the static broker lookup), so a stopped broker seemed to answer with the leader's producers.
 */
final class PartitionSnapshot {
    private static final Comparator<TopicPartition> BY_TOPIC_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);
    /** A call to a stopped broker fails after this long instead of the Admin's 60 s default. */
    private static final int BROKER_CALL_TIMEOUT_MS = 15_000;

    private final Admin admin;
    private final Supplier<Admin> newAdmin;
    private final Map<String, String> logDirLabels;
    private final List<Long> extraProbes;
    private final Map<String, TopicDescription> topics = new TreeMap<>();
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Set<Integer> brokers = new TreeSet<>();
    /** Log end offsets as ConsumerGroupCommand reads them: {@code OffsetSpec.latest()}, READ_UNCOMMITTED. */
    private final Map<TopicPartition, Long> logEnd = new HashMap<>();

    /**
     * @param newAdmin     makes a new Admin client (one per {@code describeProducers} broker)
     * @param logDirLabels absolute log dir path to the name admin.json gives it
     * @param probeTimestamps timestamps inside the data for {@code OffsetSpec.forTimestamp}; the
     *                        largest record timestamp and the one after it are always added
     * @param brokerIds every broker of the cluster, stopped ones included
     */
    PartitionSnapshot(Admin admin, Supplier<Admin> newAdmin, Map<String, String> logDirLabels, List<Long> probeTimestamps,
                      Set<Integer> brokerIds) {
        this.admin = admin;
        this.newAdmin = newAdmin;
        this.logDirLabels = logDirLabels;
        this.extraProbes = probeTimestamps;
        this.brokers.addAll(brokerIds);
    }

    /** Adds the snapshot's fields to {@code root}, in a fixed order. */
    void putInto(Map<String, Object> root) throws Exception {
        Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(60, TimeUnit.SECONDS);
        topics.putAll(admin.describeTopics(names).allTopicNames().get(60, TimeUnit.SECONDS));
        for (TopicDescription d : topics.values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                partitions.add(new TopicPartition(d.name(), p.partition()));
                for (Node n : p.replicas()) {
                    brokers.add(n.id());
                }
            }
        }
        partitions.sort(BY_TOPIC_PARTITION);
        Map<String, Map<TopicPartition, Object>> offsets = new LinkedHashMap<>();
        offsets.put("earliest", listOffsets(OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED));
        offsets.put("latest", listOffsets(OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED));
        offsets.get("latest").forEach((tp, r) -> {
            if (r instanceof Map && ((Map<?, ?>) r).get("offset") instanceof Long) {
                logEnd.put(tp, (Long) ((Map<?, ?>) r).get("offset"));
            }
        });
        offsets.put("latestReadCommitted", listOffsets(OffsetSpec.latest(), IsolationLevel.READ_COMMITTED));
        offsets.put("maxTimestamp", listOffsets(OffsetSpec.maxTimestamp(), IsolationLevel.READ_UNCOMMITTED));
        offsets.put("earliestLocal", listOffsets(OffsetSpec.earliestLocal(), IsolationLevel.READ_UNCOMMITTED));
        List<Long> probes = probes(offsets.get("maxTimestamp"));
        Map<Long, Map<TopicPartition, Object>> byTime = new TreeMap<>();
        for (long t : probes) {
            byTime.put(t, listOffsets(OffsetSpec.forTimestamp(t), IsolationLevel.READ_UNCOMMITTED));
        }
        Map<TopicPartition, Object> producers = producers();

        List<Object> out = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            TopicPartitionInfo info = topics.get(tp.topic()).partitions().get(tp.partition());
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("topic", tp.topic());
            p.put("partition", tp.partition());
            p.put("leader", info.leader() == null ? null : info.leader().id());
            p.put("replicas", ids(info.replicas()));
            p.put("isr", ids(info.isr()));
            p.put("elr", ids(info.elr() == null ? List.of() : info.elr()));
            p.put("lastKnownElr", ids(info.lastKnownElr() == null ? List.of() : info.lastKnownElr()));
            Map<String, Object> lo = new LinkedHashMap<>();
            offsets.forEach((name, results) -> lo.put(name, results.get(tp)));
            List<Object> ft = new ArrayList<>();
            byTime.forEach((t, results) -> {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("forTimestamp", t);
                r.put("result", results.get(tp));
                ft.add(r);
            });
            lo.put("forTimestamp", ft);
            p.put("listOffsets", lo);
            p.put("describeProducers", producers.get(tp));
            out.add(p);
        }
        root.put("probeTimestamps", probes);
        root.put("partitions", out);
        root.put("describeLogDirs", logDirs());
        root.put("describeReplicaLogDirs", replicaLogDirs());
        root.put("transactions", transactions());
        root.put("groupLag", groupLag());
    }

    private static List<Integer> ids(List<Node> nodes) {
        List<Integer> out = new ArrayList<>();
        for (Node n : nodes) {
            out.add(n.id());
        }
        return out;
    }

    /** The caller's timestamps, the largest record timestamp of all partitions, and one after it. */
    private List<Long> probes(Map<TopicPartition, Object> maxTimestamps) {
        TreeSet<Long> out = new TreeSet<>(extraProbes);
        long max = -1;
        for (Object o : maxTimestamps.values()) {
            if (o instanceof Map && ((Map<?, ?>) o).get("timestamp") instanceof Long) {
                max = Math.max(max, (Long) ((Map<?, ?>) o).get("timestamp"));
            }
        }
        if (max >= 0) {
            out.add(max);
            out.add(max + 1);
        }
        return new ArrayList<>(out);
    }

    /** One {@code listOffsets} call for every partition; per partition its offset, timestamp and leader epoch, or the error. */
    private Map<TopicPartition, Object> listOffsets(OffsetSpec spec, IsolationLevel isolation) throws InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicPartition tp : partitions) {
            request.put(tp, spec);
        }
        ListOffsetsResult r = admin.listOffsets(request, new ListOffsetsOptions(isolation).timeoutMs(BROKER_CALL_TIMEOUT_MS));
        Map<TopicPartition, Object> out = new HashMap<>();
        for (TopicPartition tp : partitions) {
            try {
                ListOffsetsResult.ListOffsetsResultInfo i = r.partitionResult(tp).get();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("offset", i.offset());
                m.put("timestamp", i.timestamp());
                m.put("leaderEpoch", i.leaderEpoch());
                out.put(tp, m);
            } catch (ExecutionException e) {
                out.put(tp, error(e));
            }
        }
        return out;
    }

    private static Map<String, Object> error(ExecutionException e) {
        Throwable c = e.getCause() == null ? e : e.getCause();
        return Map.of("error", c.getClass().getSimpleName());
    }

    /**
     * {@code describeProducers} of every partition on every broker holding a replica of it
     * ({@code DescribeProducersOptions.brokerId}), keyed by broker id.
     */
    private Map<TopicPartition, Object> producers() throws InterruptedException {
        Map<TopicPartition, Map<String, Object>> out = new HashMap<>();
        for (int broker : brokers) {
            List<TopicPartition> hosted = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                if (ids(topics.get(tp.topic()).partitions().get(tp.partition()).replicas()).contains(broker)) {
                    hosted.add(tp);
                }
            }
            if (hosted.isEmpty()) {
                continue;
            }
            try (Admin own = newAdmin.get()) {
                DescribeProducersResult r = own.describeProducers(hosted,
                        new DescribeProducersOptions().brokerId(broker).timeoutMs(BROKER_CALL_TIMEOUT_MS));
                describedOn(broker, hosted, r, out);
            }
        }
        return new HashMap<>(out);
    }

    private static void describedOn(int broker, List<TopicPartition> hosted, DescribeProducersResult r,
                                    Map<TopicPartition, Map<String, Object>> out) throws InterruptedException {
        for (TopicPartition tp : hosted) {
            Object value;
            try {
                List<ProducerState> ps = new ArrayList<>(r.partitionResult(tp).get().activeProducers());
                ps.sort(Comparator.comparingLong(ProducerState::producerId));
                List<Object> list = new ArrayList<>();
                for (ProducerState s : ps) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("producerId", s.producerId());
                    m.put("producerEpoch", s.producerEpoch());
                    m.put("lastSequence", s.lastSequence());
                    m.put("lastTimestamp", s.lastTimestamp());
                    m.put("coordinatorEpoch", s.coordinatorEpoch().isPresent() ? s.coordinatorEpoch().getAsInt() : null);
                    m.put("currentTransactionStartOffset", s.currentTransactionStartOffset().isPresent()
                            ? s.currentTransactionStartOffset().getAsLong() : null);
                    list.add(m);
                }
                value = list;
            } catch (ExecutionException e) {
                value = error(e);
            }
            out.computeIfAbsent(tp, k -> new TreeMap<>()).put(String.valueOf(broker), value);
        }
    }

    private String label(String path) {
        for (Map.Entry<String, String> e : logDirLabels.entrySet()) {
            if (path.equals(e.getKey()) || path.equals(e.getKey() + "/")) {
                return e.getValue();
            }
        }
        return path;
    }

    /** {@code describeLogDirs} per broker: every log dir with every replica's size, offset lag and future flag. */
    private List<Object> logDirs() throws InterruptedException {
        Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> r = admin.describeLogDirs(brokers,
                new DescribeLogDirsOptions().timeoutMs(BROKER_CALL_TIMEOUT_MS)).descriptions();
        List<Object> out = new ArrayList<>();
        for (int broker : brokers) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("broker", broker);
            try {
                List<Object> dirs = new ArrayList<>();
                for (Map.Entry<String, LogDirDescription> e : new TreeMap<>(r.get(broker).get()).entrySet()) {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("path", label(e.getKey()));
                    d.put("error", e.getValue().error() == null ? null : e.getValue().error().getClass().getSimpleName());
                    List<Object> replicas = new ArrayList<>();
                    Map<TopicPartition, ReplicaInfo> infos = new TreeMap<>(BY_TOPIC_PARTITION);
                    infos.putAll(e.getValue().replicaInfos());
                    infos.forEach((tp, ri) -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("topic", tp.topic());
                        m.put("partition", tp.partition());
                        m.put("size", ri.size());
                        m.put("offsetLag", ri.offsetLag());
                        m.put("isFuture", ri.isFuture());
                        replicas.add(m);
                    });
                    d.put("replicas", replicas);
                    dirs.add(d);
                }
                b.put("logDirs", dirs);
            } catch (ExecutionException e) {
                b.put("error", error(e).get("error"));
            }
            out.add(b);
        }
        return out;
    }

    /** {@code describeReplicaLogDirs} for every replica of every partition. */
    private List<Object> replicaLogDirs() throws InterruptedException {
        List<TopicPartitionReplica> replicas = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            for (int b : ids(topics.get(tp.topic()).partitions().get(tp.partition()).replicas())) {
                replicas.add(new TopicPartitionReplica(tp.topic(), tp.partition(), b));
            }
        }
        DescribeReplicaLogDirsResult r = admin.describeReplicaLogDirs(replicas,
                new DescribeReplicaLogDirsOptions().timeoutMs(BROKER_CALL_TIMEOUT_MS));
        Map<TopicPartitionReplica, KafkaFuture<DescribeReplicaLogDirsResult.ReplicaLogDirInfo>> values = r.values();
        List<Object> out = new ArrayList<>();
        for (TopicPartitionReplica rep : replicas) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("topic", rep.topic());
            m.put("partition", rep.partition());
            m.put("broker", rep.brokerId());
            try {
                DescribeReplicaLogDirsResult.ReplicaLogDirInfo i = values.get(rep).get();
                m.put("currentReplicaLogDir", i.getCurrentReplicaLogDir() == null ? null : label(i.getCurrentReplicaLogDir()));
                m.put("currentReplicaOffsetLag", i.getCurrentReplicaOffsetLag());
                m.put("futureReplicaLogDir", i.getFutureReplicaLogDir() == null ? null : label(i.getFutureReplicaLogDir()));
                m.put("futureReplicaOffsetLag", i.getFutureReplicaOffsetLag());
            } catch (ExecutionException e) {
                m.put("error", error(e).get("error"));
            }
            out.add(m);
        }
        return out;
    }

    /** {@code listTransactions} (every state) and {@code describeTransactions} of each transactional id. */
    private List<Object> transactions() throws Exception {
        List<TransactionListing> listings = new ArrayList<>(admin.listTransactions().all().get(60, TimeUnit.SECONDS));
        listings.sort(Comparator.comparing(TransactionListing::transactionalId));
        List<String> ids = new ArrayList<>();
        for (TransactionListing l : listings) {
            ids.add(l.transactionalId());
        }
        DescribeTransactionsResult described = ids.isEmpty() ? null
                : admin.describeTransactions(ids, new DescribeTransactionsOptions().timeoutMs(BROKER_CALL_TIMEOUT_MS));
        List<Object> out = new ArrayList<>();
        for (TransactionListing l : listings) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("transactionalId", l.transactionalId());
            t.put("producerId", l.producerId());
            t.put("state", l.state().toString());
            Map<String, Object> d = new LinkedHashMap<>();
            try {
                TransactionDescription td = described.description(l.transactionalId()).get();
                d.put("coordinatorId", td.coordinatorId());
                d.put("state", td.state().toString());
                d.put("producerId", td.producerId());
                d.put("producerEpoch", td.producerEpoch());
                d.put("transactionTimeoutMs", td.transactionTimeoutMs());
                d.put("transactionStartTimeMs", td.transactionStartTimeMs().isPresent() ? td.transactionStartTimeMs().getAsLong() : null);
                List<TopicPartition> tps = new ArrayList<>(td.topicPartitions());
                tps.sort(BY_TOPIC_PARTITION);
                List<Object> names = new ArrayList<>();
                for (TopicPartition tp : tps) {
                    names.add(tp.topic() + "-" + tp.partition());
                }
                d.put("topicPartitions", names);
            } catch (ExecutionException e) {
                d.put("error", error(e).get("error"));
            }
            t.put("describeTransactions", d);
            out.add(t);
        }
        return out;
    }

    /**
     * Each group's lag as {@code kafka-consumer-groups --describe} computes it (4.4.0
     * {@code ConsumerGroupCommand.describePartitions}): the committed offset from
     * {@code listConsumerGroupOffsets}, the log end offset from {@code listOffsets} with
     * {@code OffsetSpec.latest()} and default options (READ_UNCOMMITTED: the high watermark),
     * {@code lag = logEndOffset - committedOffset}; no lag without a log end offset.
     */
    private List<Object> groupLag() throws Exception {
        List<String> groups = new ArrayList<>();
        admin.listGroups().all().get(60, TimeUnit.SECONDS).forEach(g -> groups.add(g.groupId()));
        groups.sort(Comparator.naturalOrder());
        List<Object> out = new ArrayList<>();
        for (String g : groups) {
            Map<TopicPartition, OffsetAndMetadata> committed;
            try {
                committed = admin.listConsumerGroupOffsets(g).partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                continue; // share and streams groups have no consumer group offsets
            }
            Map<TopicPartition, OffsetAndMetadata> sorted = new TreeMap<>(BY_TOPIC_PARTITION);
            committed.forEach((tp, om) -> {
                if (om != null) {
                    sorted.put(tp, om);
                }
            });
            if (sorted.isEmpty()) {
                continue;
            }
            List<Object> parts = new ArrayList<>();
            sorted.forEach((tp, om) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("topic", tp.topic());
                m.put("partition", tp.partition());
                m.put("committedOffset", om.offset());
                Long end = logEnd.get(tp);
                m.put("logEndOffset", end);
                m.put("lag", end == null || om.offset() == -1 ? null : end - om.offset());
                parts.add(m);
            });
            Map<String, Object> gm = new LinkedHashMap<>();
            gm.put("groupId", g);
            gm.put("partitions", parts);
            out.add(gm);
        }
        return out;
    }
}
