package io.segscope.format.replay;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.EmbeddedProtocol;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.MalformedException;
import io.segscope.format.coordinator.StructReader;
import io.segscope.format.coordinator.StructValue;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A group as Kafka 4.4's group coordinator holds it after a replay. Which fields are set depends
 * on {@link #type()}: a classic group comes whole from its last GroupMetadataValue
 * ({@link #classicValue()}); a simple group is a classic group with no record of its own, created
 * by an offset commit ({@link #isSimple()}); consumer, share and streams groups are merged from
 * their records (group metadata, target assignment metadata, members, regular expressions,
 * topology, share state partitions). The structs hold every field of the record. A classic
 * group's value is refined (its members' consumer protocol bytes decoded) the first time it or a
 * member's struct is read, so reading one group from several threads at once is not safe.
 */
public final class ReplayedGroup {
    private final String groupId;
    private final GroupType type;
    final Map<String, Member> members = new LinkedHashMap<>();

    // classic: the value as decoded, refined (classic members' consumer protocol bytes decoded)
    // the first time it or a member's struct is asked for
    StructValue classicValue;
    RecordSchema classicSchema;
    // classic, until first read: the last GroupMetadataValue's bytes after its version (checked
    // when replayed), decoded into classicValue and the members by loadClassic
    byte[] classicBytes;
    short classicVersion;
    private boolean classicRefined;

    // modern
    StructValue groupMetadata;            // 3, 11, 17
    StructValue targetAssignmentMetadata; // 6, 12, 20
    final Map<String, StructValue> targetAssignments = new LinkedHashMap<>(); // 7, 13, 21
    final Map<String, StructValue> regularExpressions = new LinkedHashMap<>(); // 16
    StructValue topology;                 // 23
    StructValue statePartitionMetadata;   // 15
    boolean hasPartitionMetadata;         // 4 (deprecated): whether a value was seen
    // modern groups start at epoch 1 and assignment epoch 1 (ModernGroup, StreamsGroup and
    // TargetAssignmentMetadata.INITIAL in 4.4.0); a target assignment metadata tombstone sets -1
    int groupEpoch = 1;
    int assignmentEpoch = 1;

    Provenance lastRecord;

    ReplayedGroup(String groupId, GroupType type) {
        this.groupId = groupId;
        this.type = type;
    }

    /** Decodes the classic value kept as bytes, and its members, once. */
    private void loadClassic() {
        byte[] b = classicBytes;
        if (b == null) {
            return;
        }
        classicBytes = null;
        StructValue v;
        try {
            v = new StructReader().read(classicSchema.value(), classicVersion,
                    classicSchema.flexibleVersions().contains(classicVersion), ByteBuffer.wrap(b), 0, b.length, null);
        } catch (MalformedException e) {
            throw new IllegalStateException("a checked GroupMetadataValue does not decode: " + e.getMessage(), e);
        }
        classicValue = v;
        for (Object o : (List<?>) v.get("members")) {
            StructValue mv = (StructValue) o;
            Member m = new Member(mv.getString("memberId"));
            m.classic = mv;
            m.classicGroup = this;
            members.put(m.memberId(), m);
        }
    }

    public String groupId() { return groupId; }
    public GroupType type() { return type; }

    /** A classic group created by an offset commit, with no GroupMetadata record: no protocol type, no members. */
    public boolean isSimple() {
        loadClassic();
        return type == GroupType.CLASSIC && (classicValue == null || protocolType() == null) && members.isEmpty();
    }

    /** Members by id, in the order their first record was replayed (classic: the record's order). */
    public Map<String, Member> members() { loadClassic(); return Collections.unmodifiableMap(members); }

    /** The last GroupMetadataValue (classic groups with a record), or null. */
    public StructValue classicValue() {
        loadClassic();
        refineClassic();
        return classicValue;
    }

    /** Refines the classic value once, and its members' structs with it (by member id: the last one wins, as when replayed). */
    void refineClassic() {
        loadClassic();
        if (classicRefined || classicValue == null) {
            return;
        }
        classicRefined = true;
        classicValue = CoordinatorRecordDecoder.consumerOffsets().refine(classicSchema, classicValue);
        for (Object o : (List<?>) classicValue.get("members")) {
            StructValue mv = (StructValue) o;
            Member m = members.get(mv.getString("memberId"));
            if (m != null && m.classic != null) {
                m.classic = mv;
            }
        }
    }
    /** The group metadata value (types 3, 11, 17), or null. */
    public StructValue groupMetadata() { return groupMetadata; }
    /** The target assignment metadata value (types 6, 12, 20), or null. */
    public StructValue targetAssignmentMetadata() { return targetAssignmentMetadata; }
    /** Target assignments by member id (types 7, 13, 21), kept apart from the members as Kafka does. */
    public Map<String, StructValue> targetAssignments() { return Collections.unmodifiableMap(targetAssignments); }
    /** Resolved regular expressions by regex (type 16: Topics, Version, Timestamp). */
    public Map<String, StructValue> regularExpressions() { return Collections.unmodifiableMap(regularExpressions); }
    /** The streams topology value (type 23), or null. */
    public StructValue topology() { return topology; }
    /** The share group state partition metadata value (type 15), or null. */
    public StructValue statePartitionMetadata() { return statePartitionMetadata; }
    /** Whether a (deprecated) ConsumerGroupPartitionMetadata value (type 4) was replayed and not tombstoned. */
    public boolean hasPartitionMetadata() { return hasPartitionMetadata; }
    /** Where the last record of this group was read (null for a simple group). */
    public Provenance lastRecord() { return lastRecord; }

    /** Classic: the protocol type ({@code "consumer"}, {@code "connect"}...), null when "" or absent. */
    public String protocolType() {
        loadClassic();
        if (classicValue == null) {
            return null;
        }
        String p = classicValue.getString("protocolType");
        return p == null || p.isEmpty() ? null : p;
    }

    /** Classic: the selected protocol (assignor), or null. */
    public String protocol() {
        loadClassic();
        return classicValue == null ? null : classicValue.getString("protocol");
    }

    /** Classic: the generation; modern: the group epoch. */
    public int generationOrEpoch() {
        loadClassic();
        if (type == GroupType.CLASSIC) {
            return classicValue == null ? 0 : classicValue.getInt("generation");
        }
        return groupEpoch;
    }

    /** Classic: the leader member id, or null. */
    public String leader() {
        loadClassic();
        return classicValue == null ? null : classicValue.getString("leader");
    }

    /** Classic: currentStateTimestamp (value v2+), or -1. */
    public long currentStateTimestamp() {
        loadClassic();
        return classicValue == null ? -1 : classicValue.getLong("currentStateTimestamp");
    }

    /** Modern groups: the target assignment epoch (1 before any record, -1 after its tombstone). */
    public int assignmentEpoch() {
        return assignmentEpoch;
    }

    /**
     * The state as the coordinator derives it after a load:
     * <ul>
     * <li>classic ({@code GroupMetadataManager.replay(GroupMetadataKey, GroupMetadataValue)} →
     *   {@code ClassicGroup.fromRecord}): {@code Empty} without members, else {@code Stable}. The
     *   log cannot tell PreparingRebalance or CompletingRebalance: they are never written, and a
     *   loaded group with members is Stable. A simple group is Empty.</li>
     * <li>consumer ({@code ConsumerGroup.maybeUpdateGroupState}): {@code Empty} without members;
     *   {@code Assigning} when the group epoch is above the target assignment epoch;
     *   {@code Reconciling} when a member is not reconciled to the assignment epoch (member state
     *   not STABLE or member epoch different, {@code ModernGroupMember.isReconciledTo}); else
     *   {@code Stable}.</li>
     * <li>streams ({@code StreamsGroup.maybeUpdateGroupState}): as consumer groups, with
     *   {@code NotReady} (members, but no topology or its epoch is not the validated topology
     *   epoch) checked before Assigning.</li>
     * <li>share ({@code ShareGroup.maybeUpdateGroupState}): {@code Empty} without members, else
     *   {@code Stable}.</li>
     * </ul>
     */
    public String state() {
        loadClassic();
        if (members.isEmpty()) {
            return "Empty";
        }
        switch (type) {
            case CLASSIC:
            case SHARE:
                return "Stable";
            case STREAMS:
                int validated = groupMetadata == null ? -1 : groupMetadata.getInt("ValidatedTopologyEpoch");
                if (topology == null || topology.getInt("Epoch") != validated) {
                    return "NotReady";
                }
                return modernState();
            default:
                return modernState();
        }
    }

    private String modernState() {
        if (groupEpoch > assignmentEpoch) {
            return "Assigning";
        }
        for (Member m : members.values()) {
            if (!m.isReconciledTo(assignmentEpoch)) {
                return "Reconciling";
            }
        }
        return "Stable";
    }

    /**
     * The topics the coordinator counts as subscribed when it expires offsets
     * ({@code Group.isSubscribedToTopic}); null means "every topic" (a classic group using the
     * consumer protocol whose subscriptions do not parse).
     * <ul>
     * <li>classic: for protocol type {@code consumer}, the topics of the members' subscriptions
     *   (empty without members); for other protocol types and simple groups, none
     *   ({@code ClassicGroup.computeSubscribedTopics}).</li>
     * <li>consumer: the members' subscribed topic names and every resolved regular expression's
     *   topics ({@code ModernGroup.subscribedTopicNames}).</li>
     * <li>streams: none when Empty; else the topology's source topics ({@code StreamsGroup.isSubscribedToTopic}).</li>
     * <li>share: the members' subscribed topic names.</li>
     * </ul>
     */
    @SuppressWarnings("unchecked")
    public Set<String> subscribedTopics() {
        loadClassic();
        Set<String> topics = new TreeSet<>();
        switch (type) {
            case CLASSIC:
                if (!"consumer".equals(protocolType())) {
                    return topics;
                }
                for (Member m : members.values()) {
                    if (!(m.subscription() instanceof EmbeddedProtocol p)) {
                        return null;
                    }
                    topics.addAll((List<String>) p.struct().get("Topics"));
                }
                return topics;
            case CONSUMER:
            case SHARE:
                for (Member m : members.values()) {
                    topics.addAll(m.subscribedTopicNames());
                }
                for (StructValue r : regularExpressions.values()) {
                    topics.addAll((List<String>) r.get("Topics"));
                }
                return topics;
            default:
                if (members.isEmpty() || topology == null) {
                    return topics;
                }
                for (Object o : (List<?>) topology.get("Subtopologies")) {
                    StructValue st = (StructValue) o;
                    topics.addAll((List<String>) st.get("SourceTopics"));
                    for (Object rp : (List<?>) st.get("RepartitionSourceTopics")) {
                        topics.add(((StructValue) rp).getString("Name"));
                    }
                }
                return topics;
        }
    }

    @Override
    public String toString() {
        loadClassic();
        return type.display() + " group " + groupId + " " + state() + " members=" + members.keySet();
    }
}
