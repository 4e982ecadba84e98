package io.segscope.format.replay;

import io.segscope.format.coordinator.EmbeddedProtocol;
import io.segscope.format.coordinator.StructValue;
import java.util.List;

/**
 * A group member as its records tell it. Classic members come whole from a GroupMetadataValue
 * ({@link #classic()}); members of consumer, share and streams groups are merged from their member
 * metadata record (types 5, 10, 19: {@link #metadata()}) and their current assignment (8, 14, 22:
 * {@link #currentAssignment()}),
 * each null until its record is replayed (target assignments are kept by the group,
 * {@link ReplayedGroup#targetAssignments()}, as Kafka keeps them apart from the members). The structs hold every field of the record
 * (docs/format.md 2.3, 2.6); the typed accessors read the common ones.
 */
public final class Member {
    private final String memberId;
    StructValue classic;
    ReplayedGroup classicGroup; // refines classic when it is read
    StructValue metadata;
    StructValue currentAssignment;
    // ConsumerGroupMember.Builder's defaults until a current assignment record sets them
    int memberEpoch = 0;
    int previousMemberEpoch = -1;
    int state;
    private final int stableState;

    Member(String memberId) {
        this(memberId, 0);
    }

    /** @param stableState the id of STABLE in the member state enum of the group type (streams: 1, else 0) */
    Member(String memberId, int stableState) {
        this.memberId = memberId;
        this.stableState = stableState;
        this.state = stableState;
    }

    public String memberId() { return memberId; }

    /** A classic member's MemberMetadata struct (subscription and assignment decoded as {@link EmbeddedProtocol} where they parse), else null. */
    public StructValue classic() {
        if (classicGroup != null) {
            classicGroup.refineClassic();
        }
        return classic;
    }
    /** The member metadata value (types 5, 10, 19), or null. */
    public StructValue metadata() { return metadata; }
    /** The current member assignment value (types 8, 14, 22), or null. */
    public StructValue currentAssignment() { return currentAssignment; }

    public String clientId() {
        return classic != null ? classic.getString("clientId") : metadata != null ? metadata.getString("ClientId") : null;
    }

    public String host() {
        return classic != null ? classic.getString("clientHost") : metadata != null ? metadata.getString("ClientHost") : null;
    }

    /** The static member's instance id, or null. */
    public String groupInstanceId() {
        if (classic != null) {
            return classic.getString("groupInstanceId");
        }
        return metadata != null && metadata.schema().indexOf("InstanceId") >= 0 ? metadata.getString("InstanceId") : null;
    }

    /**
     * The member epoch of a modern group's member: from its current assignment record; 0 before
     * one (the default of Kafka's member builder); -1 after its tombstone.
     */
    public int memberEpoch() {
        return memberEpoch;
    }

    /** The previous member epoch (-1 by default and after the current assignment's tombstone). */
    public int previousMemberEpoch() {
        return previousMemberEpoch;
    }

    /**
     * The member state id as stored: consumer and share members ({@code modern.MemberState}): 0
     * STABLE (the default), 1 UNREVOKED_PARTITIONS, 2 UNRELEASED_PARTITIONS, 127 UNKNOWN; streams
     * members ({@code streams.MemberState}): 1 STABLE, 2 UNREVOKED_TASKS, 3 UNRELEASED_TASKS, 127 UNKNOWN.
     */
    public int memberState() {
        return state;
    }

    /** Subscribed topic names (consumer, share groups), or an empty list. */
    @SuppressWarnings("unchecked")
    public List<String> subscribedTopicNames() {
        if (metadata != null && metadata.schema().indexOf("SubscribedTopicNames") >= 0) {
            return (List<String>) metadata.get("SubscribedTopicNames");
        }
        return List.of();
    }

    /** The subscribed regular expression (consumer groups), or null. */
    public String subscribedTopicRegex() {
        return metadata != null && metadata.schema().indexOf("SubscribedTopicRegex") >= 0
                ? metadata.getString("SubscribedTopicRegex") : null;
    }

    /** A classic member's subscription: {@link EmbeddedProtocol} when it parses as the consumer protocol, else the raw bytes. */
    public Object subscription() {
        return classic() == null ? null : classic.get("subscription");
    }

    /** A classic member's assignment: {@link EmbeddedProtocol} when it parses, else the raw bytes. */
    public Object assignment() {
        return classic() == null ? null : classic.get("assignment");
    }

    /** Whether the member is reconciled to {@code epoch}: state STABLE and member epoch equal ({@code ModernGroupMember.isReconciledTo}). */
    boolean isReconciledTo(int epoch) {
        return state == stableState && memberEpoch == epoch;
    }

    @Override
    public String toString() {
        return "Member{" + memberId + ", clientId=" + clientId() + ", epoch=" + memberEpoch() + "}";
    }
}
