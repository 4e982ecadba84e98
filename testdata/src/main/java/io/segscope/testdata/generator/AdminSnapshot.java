package io.segscope.testdata.generator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ClassicGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * What the Admin API reports about every group and topic, as a tree ready for {@link Json}:
 * groups sorted by id, offsets by topic and partition, members by client id. Member ids are
 * random per run and kept as reported.
 */
public final class AdminSnapshot {
    private static final Comparator<TopicPartition> BY_TOPIC_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final Admin admin;
    private final Supplier<Admin> newAdmin;
    private final Map<String, String> logDirLabels;
    private final List<Long> probeTimestamps;
    private final Set<Integer> brokerIds;

    /**
     * The groups and topics only: the shape of the {@code admin.json} of the runs generated before
     * the partition snapshot was added (what {@code CompactAcceptance} compares a broker's answers with).
     */
    public AdminSnapshot(Admin admin) {
        this(admin, null, Map.of(), List.of(), Set.of());
    }

    /**
     * @param newAdmin        makes a new Admin client (see {@link PartitionSnapshot})
     * @param logDirLabels    absolute path of each broker's log dir to its name in the run
     *                        ({@code logdir}, {@code logdirs/broker-1})
     * @param probeTimestamps timestamps inside the data for {@code OffsetSpec.forTimestamp}
     * @param brokerIds       every broker of the cluster, stopped ones included
     */
    public AdminSnapshot(Admin admin, Supplier<Admin> newAdmin, Map<String, String> logDirLabels, List<Long> probeTimestamps,
                         Set<Integer> brokerIds) {
        this.admin = admin;
        this.newAdmin = newAdmin;
        this.logDirLabels = logDirLabels;
        this.probeTimestamps = probeTimestamps;
        this.brokerIds = brokerIds;
    }

    /**
     * The groups and topics, then (see {@link PartitionSnapshot}) every partition's offsets and
     * producers, the log dirs, the transactions and each group's lag, one call after the other
     * with nothing produced or committed in between.
     */
    public Map<String, Object> take() throws Exception {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("takenAtMs", System.currentTimeMillis());
        root.put("groups", groups());
        root.put("topics", topics());
        if (newAdmin != null) {
            new PartitionSnapshot(admin, newAdmin, logDirLabels, probeTimestamps, brokerIds).putInto(root);
        }
        return root;
    }

    private List<Object> groups() throws Exception {
        List<GroupListing> listings = new ArrayList<>(admin.listGroups().all().get(60, TimeUnit.SECONDS));
        listings.sort(Comparator.comparing(GroupListing::groupId));
        List<Object> out = new ArrayList<>();
        for (GroupListing l : listings) {
            Map<String, Object> g = new LinkedHashMap<>();
            String id = l.groupId();
            // A broker before 3.8 (ListGroups v4) names no group type: its groups are all classic.
            GroupType type = l.type().orElse(GroupType.CLASSIC);
            g.put("groupId", id);
            g.put("type", l.type().map(GroupType::toString));
            g.put("protocol", l.protocol());
            g.put("state", l.groupState().map(Object::toString));
            g.put("isSimpleConsumerGroup", l.isSimpleConsumerGroup());
            if (type == GroupType.CLASSIC) {
                ClassicGroupDescription d = admin.describeClassicGroups(List.of(id)).all()
                        .get(60, TimeUnit.SECONDS).get(id);
                Map<String, Object> desc = new LinkedHashMap<>();
                desc.put("protocol", d.protocol());
                desc.put("protocolData", d.protocolData());
                desc.put("state", d.state().toString());
                desc.put("isSimpleConsumerGroup", d.isSimpleConsumerGroup());
                desc.put("members", members(d.members()));
                g.put("describeClassicGroups", desc);
                g.put("offsets", offsets(id));
            } else if (type == GroupType.CONSUMER) {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(id)).all()
                        .get(60, TimeUnit.SECONDS).get(id);
                Map<String, Object> desc = new LinkedHashMap<>();
                desc.put("type", d.type().toString());
                desc.put("state", d.groupState().toString());
                desc.put("partitionAssignor", d.partitionAssignor());
                desc.put("groupEpoch", d.groupEpoch());
                desc.put("targetAssignmentEpoch", d.targetAssignmentEpoch());
                desc.put("members", members(d.members()));
                g.put("describeConsumerGroups", desc);
                g.put("offsets", offsets(id));
            } else if (type == GroupType.SHARE) {
                ShareGroupDescription d = admin.describeShareGroups(List.of(id)).all()
                        .get(60, TimeUnit.SECONDS).get(id);
                Map<String, Object> desc = new LinkedHashMap<>();
                desc.put("state", d.groupState().toString());
                desc.put("groupEpoch", d.groupEpoch());
                desc.put("targetAssignmentEpoch", d.targetAssignmentEpoch());
                List<ShareMemberDescription> ms = new ArrayList<>(d.members());
                ms.sort(Comparator.comparing(ShareMemberDescription::clientId)
                        .thenComparing(ShareMemberDescription::consumerId));
                List<Object> members = new ArrayList<>();
                for (ShareMemberDescription m : ms) {
                    Map<String, Object> mm = new LinkedHashMap<>();
                    mm.put("memberId", m.consumerId());
                    mm.put("clientId", m.clientId());
                    mm.put("host", m.host());
                    mm.put("memberEpoch", m.memberEpoch());
                    mm.put("assignment", partitions(m.assignment().topicPartitions()));
                    members.add(mm);
                }
                desc.put("members", members);
                g.put("describeShareGroups", desc);
                Map<TopicPartition, SharePartitionOffsetInfo> offs = admin.listShareGroupOffsets(
                        Map.of(id, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(id)
                        .get(60, TimeUnit.SECONDS);
                List<Object> offsets = new ArrayList<>();
                Map<TopicPartition, SharePartitionOffsetInfo> sorted = new TreeMap<>(BY_TOPIC_PARTITION);
                offs.forEach((tp, info) -> {
                    if (info != null) {
                        sorted.put(tp, info);
                    }
                });
                for (Map.Entry<TopicPartition, SharePartitionOffsetInfo> e : sorted.entrySet()) {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("topic", e.getKey().topic());
                    o.put("partition", e.getKey().partition());
                    o.put("startOffset", e.getValue().startOffset());
                    o.put("leaderEpoch", e.getValue().leaderEpoch());
                    o.put("lag", e.getValue().lag());
                    offsets.add(o);
                }
                g.put("shareOffsets", offsets);
            } else if (type == GroupType.STREAMS) {
                StreamsGroupDescription d = admin.describeStreamsGroups(List.of(id)).all()
                        .get(60, TimeUnit.SECONDS).get(id);
                Map<String, Object> desc = new LinkedHashMap<>();
                desc.put("state", d.groupState().toString());
                desc.put("groupEpoch", d.groupEpoch());
                desc.put("targetAssignmentEpoch", d.targetAssignmentEpoch());
                desc.put("topologyEpoch", d.topologyEpoch());
                desc.put("subtopologies", d.subtopologies().size());
                List<StreamsGroupMemberDescription> ms = new ArrayList<>(d.members());
                ms.sort(Comparator.comparing(StreamsGroupMemberDescription::clientId)
                        .thenComparing(StreamsGroupMemberDescription::memberId));
                List<Object> members = new ArrayList<>();
                for (StreamsGroupMemberDescription m : ms) {
                    Map<String, Object> mm = new LinkedHashMap<>();
                    mm.put("memberId", m.memberId());
                    mm.put("clientId", m.clientId());
                    mm.put("host", m.clientHost());
                    mm.put("memberEpoch", m.memberEpoch());
                    mm.put("topologyEpoch", m.topologyEpoch());
                    mm.put("processId", m.processId());
                    mm.put("activeTasks", m.assignment().activeTasks().size());
                    members.add(mm);
                }
                desc.put("members", members);
                g.put("describeStreamsGroups", desc);
                g.put("offsets", offsets(admin.listStreamsGroupOffsets(Map.of(id, new ListStreamsGroupOffsetsSpec()))
                        .partitionsToOffsetAndMetadata(id).get(60, TimeUnit.SECONDS)));
            }
            out.add(g);
        }
        return out;
    }

    private static List<Object> members(Collection<MemberDescription> in) {
        List<MemberDescription> ms = new ArrayList<>(in);
        ms.sort(Comparator.comparing(MemberDescription::clientId).thenComparing(MemberDescription::consumerId));
        List<Object> out = new ArrayList<>();
        for (MemberDescription m : ms) {
            Map<String, Object> mm = new LinkedHashMap<>();
            mm.put("memberId", m.consumerId());
            mm.put("groupInstanceId", m.groupInstanceId());
            mm.put("clientId", m.clientId());
            mm.put("host", m.host());
            mm.put("memberEpoch", m.memberEpoch());
            mm.put("assignment", partitions(m.assignment().topicPartitions()));
            mm.put("targetAssignment", m.targetAssignment().map(a -> partitions(a.topicPartitions())));
            out.add(mm);
        }
        return out;
    }

    private static List<Object> partitions(Set<TopicPartition> tps) {
        List<TopicPartition> sorted = new ArrayList<>(tps);
        sorted.sort(BY_TOPIC_PARTITION);
        List<Object> out = new ArrayList<>();
        for (TopicPartition tp : sorted) {
            out.add(tp.topic() + "-" + tp.partition());
        }
        return out;
    }

    private List<Object> offsets(String groupId) throws Exception {
        return offsets(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS));
    }

    private static List<Object> offsets(Map<TopicPartition, OffsetAndMetadata> offs) {
        Map<TopicPartition, OffsetAndMetadata> sorted = new TreeMap<>(BY_TOPIC_PARTITION);
        offs.forEach((tp, om) -> {
            if (om != null) {
                sorted.put(tp, om);
            }
        });
        List<Object> out = new ArrayList<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : sorted.entrySet()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("topic", e.getKey().topic());
            o.put("partition", e.getKey().partition());
            o.put("offset", e.getValue().offset());
            o.put("leaderEpoch", e.getValue().leaderEpoch());
            o.put("metadata", e.getValue().metadata());
            out.add(o);
        }
        return out;
    }

    private List<Object> topics() throws Exception {
        Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                .get(60, TimeUnit.SECONDS);
        Map<String, TopicDescription> descs = new TreeMap<>(admin.describeTopics(names).allTopicNames()
                .get(60, TimeUnit.SECONDS));
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicDescription d : descs.values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                TopicPartition tp = new TopicPartition(d.name(), p.partition());
                earliest.put(tp, OffsetSpec.earliest());
                latest.put(tp, OffsetSpec.latest());
            }
        }
        ListOffsetsResult lo = admin.listOffsets(earliest);
        ListOffsetsResult hi = admin.listOffsets(latest);
        List<Object> out = new ArrayList<>();
        for (TopicDescription d : descs.values()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", d.name());
            t.put("topicId", d.topicId().toString());
            t.put("internal", d.isInternal());
            List<Object> parts = new ArrayList<>();
            List<TopicPartitionInfo> ps = new ArrayList<>(d.partitions());
            ps.sort(Comparator.comparingInt(TopicPartitionInfo::partition));
            for (TopicPartitionInfo p : ps) {
                TopicPartition tp = new TopicPartition(d.name(), p.partition());
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("partition", p.partition());
                pm.put("earliestOffset", offset(lo, tp));
                pm.put("latestOffset", offset(hi, tp));
                parts.add(pm);
            }
            t.put("partitions", parts);
            out.add(t);
        }
        return out;
    }

    /** The partition's offset, or null when no leader answered (a partition whose replicas are all stopped). */
    private static Long offset(ListOffsetsResult r, TopicPartition tp) throws InterruptedException, TimeoutException {
        try {
            return r.partitionResult(tp).get(60, TimeUnit.SECONDS).offset();
        } catch (ExecutionException e) {
            return null;
        }
    }
}
