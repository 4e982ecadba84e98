package io.segscope.format.replay;

/** The group types of Kafka 4.4's group coordinator ({@code Group.GroupType}). */
public enum GroupType {
    /** Classic protocol (GroupMetadata records, key type 2), and simple groups (offsets only). */
    CLASSIC("Classic"),
    /** KIP-848 consumer groups (key types 3-8, 16). */
    CONSUMER("Consumer"),
    /** KIP-932 share groups (key types 10-15). */
    SHARE("Share"),
    /** KIP-1071 streams groups (key types 17, 19-23). */
    STREAMS("Streams");

    private final String display;

    GroupType(String display) {
        this.display = display;
    }

    /** The name the Admin API prints ({@code GroupType.toString()}). */
    public String display() {
        return display;
    }
}
