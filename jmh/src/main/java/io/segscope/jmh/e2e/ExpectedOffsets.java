package io.segscope.jmh.e2e;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.Uuid;

/**
 * The generator's model of its partition: what Kafka 4.4.0's group coordinator holds once it has
 * loaded it, kept batch by batch as the generator writes, by the replay rules of
 * docs/format.md 3.2 and 3.4 (the model never reads the bytes back):
 *
 * <ul>
 *   <li>a plain commit (batch producer id -1) overwrites the committed offset, whatever its value;</li>
 *   <li>a transactional commit is pending under its producer until a marker, overwriting within the
 *       producer;</li>
 *   <li>an offset tombstone (expiration sweep, group deletion) removes the committed offset and the
 *       partition's pending offsets of every open producer;</li>
 *   <li>COMMIT materializes each pending offset only if no offset is committed or the pending
 *       record's log offset is greater than the committed one's (a plain commit written between the
 *       transactional record and its marker wins); ABORT drops them; the marker's epoch is
 *       ignored;</li>
 *   <li>group records (GroupMetadata values and tombstones) change no offset.</li>
 * </ul>
 *
 * <p>{@link #writeCsv} writes the committed offsets as {@code segscope offsets --format csv} prints
 * them: {@code group,topic,partition,offset}, no header, RFC 4180 quoting of a field holding a comma,
 * a quote or a line break, ordered by group, topic ({@link String#compareTo}) and partition. Open
 * transactions at the end stay pending and are not in it (the loader reads to the log end).
 */
public final class ExpectedOffsets {
    /** One group's offset of one partition. */
    public record Key(String group, String topic, int partition) {
    }

    /**
     * An OffsetCommitValue as the coordinator keeps it ({@code OffsetAndMetadata}).
     *
     * @param leaderEpoch -1 when the commit carried none
     * @param topicId {@link Uuid#ZERO_UUID} when the value has none (v3, or a v4 commit that did not name it)
     * @param recordOffset the log offset of the record ({@code OffsetAndMetadata.recordOffset})
     * @param producerId the batch's producer id, -1 for a plain commit
     */
    public record Offset(long offset, int leaderEpoch, String metadata, long commitTimestamp, Uuid topicId,
                         long recordOffset, long producerId) {
    }

    public static final Comparator<Key> ORDER = Comparator.comparing(Key::group).thenComparing(Key::topic)
            .thenComparingInt(Key::partition);

    private final Map<Key, Offset> committed = new HashMap<>();
    /** Pending offsets by producer, in the order the transactions were opened. */
    private final Map<Long, Map<Key, Offset>> pending = new LinkedHashMap<>();

    /** COMMIT markers' pending offsets not materialized because a later plain commit was there. */
    long skippedByLaterCommit;
    /** Pending offsets a tombstone removed before their marker. */
    long cancelledByTombstone;
    /** Pending offsets dropped by ABORT markers. */
    long aborted;
    /** Pending offsets materialized by COMMIT markers. */
    long materialized;

    /** An OffsetCommit value written in a batch of {@code o.producerId()}. */
    void commit(Key key, Offset o) {
        if (o.producerId() < 0) {
            committed.put(key, o);
        } else {
            pending.computeIfAbsent(o.producerId(), p -> new HashMap<>()).put(key, o);
        }
    }

    /** An OffsetCommit tombstone (written by the coordinator, never transactional). */
    void tombstone(Key key) {
        committed.remove(key);
        for (Map<Key, Offset> p : pending.values()) {
            if (p.remove(key) != null) {
                cancelledByTombstone++;
            }
        }
    }

    /** A COMMIT ({@code commit}) or ABORT control batch of {@code producerId}. */
    void endTransaction(long producerId, boolean commit) {
        Map<Key, Offset> p = pending.remove(producerId);
        if (p == null) {
            return;
        }
        if (!commit) {
            aborted += p.size();
            return;
        }
        for (Map.Entry<Key, Offset> e : p.entrySet()) {
            Offset existing = committed.get(e.getKey());
            if (existing == null || e.getValue().recordOffset() > existing.recordOffset()) {
                committed.put(e.getKey(), e.getValue());
                materialized++;
            } else {
                skippedByLaterCommit++;
            }
        }
    }

    /** The committed offsets, in {@link #ORDER}. */
    public List<Map.Entry<Key, Offset>> committed() {
        List<Map.Entry<Key, Offset>> out = new ArrayList<>(committed.entrySet());
        out.sort(Map.Entry.comparingByKey(ORDER));
        return out;
    }

    /** The pending offsets of the transactions still open, by producer id, then {@link #ORDER}. */
    public List<Map.Entry<Key, Offset>> pending() {
        List<Map.Entry<Key, Offset>> out = new ArrayList<>();
        for (Map<Key, Offset> p : pending.values()) {
            out.addAll(p.entrySet());
        }
        out.sort(Comparator.<Map.Entry<Key, Offset>>comparingLong(e -> e.getValue().producerId())
                .thenComparing(Map.Entry::getKey, ORDER));
        return out;
    }

    int committedCount() {
        return committed.size();
    }

    int pendingCount() {
        int n = 0;
        for (Map<Key, Offset> p : pending.values()) {
            n += p.size();
        }
        return n;
    }

    /** Open transactions holding pending offsets. */
    int openTransactions() {
        int n = 0;
        for (Iterator<Map<Key, Offset>> it = pending.values().iterator(); it.hasNext(); ) {
            if (!it.next().isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /** Groups with at least one committed offset. */
    int groupsWithOffsets() {
        return (int) committed.keySet().stream().map(Key::group).distinct().count();
    }

    /** The committed offsets as {@code segscope offsets --format csv} prints them. */
    void writeCsv(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<Key, Offset> e : committed()) {
                sb.setLength(0);
                sb.append(csvField(e.getKey().group())).append(',').append(csvField(e.getKey().topic())).append(',')
                        .append(e.getKey().partition()).append(',').append(e.getValue().offset()).append('\n');
                w.append(sb);
            }
        }
    }

    /** An RFC 4180 field, quoted with quotes doubled when it holds a comma, a quote or a line break. */
    static String csvField(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') {
                return '"' + s.replace("\"", "\"\"") + '"';
            }
        }
        return s;
    }
}
