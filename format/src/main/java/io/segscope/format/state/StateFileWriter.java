package io.segscope.format.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Writes the side files a broker keeps beside its segments, byte for byte as Kafka 4.4.0 writes
 * them (docs/format.md 1.1, 1.8, 1.9): producer-state snapshots (version 1, CRC-32C over the bytes
 * after the CRC field), offset checkpoints and leader-epoch checkpoints (version 0, one
 * {@code "<fields>"} line per entry). Each file goes to a temporary name beside its final one,
 * is synced and renamed into place, as Kafka's {@code CheckpointFile} does.
 */
public final class StateFileWriter {
    private StateFileWriter() {
    }

    /** A producer snapshot's bytes: version, CRC, count, then the entries in the order given. */
    public static byte[] producerSnapshot(Collection<ProducerSnapshotEntry> entries) {
        ByteBuffer b = ByteBuffer.allocate(ProducerSnapshotReader.ENTRIES_OFFSET
                + entries.size() * ProducerSnapshotReader.ENTRY_SIZE);
        b.putShort(ProducerSnapshotReader.CURRENT_VERSION).putInt(0).putInt(entries.size());
        for (ProducerSnapshotEntry e : entries) {
            b.putLong(e.producerId()).putShort(e.epoch()).putInt(e.lastSequence()).putLong(e.lastOffset())
                    .putInt(e.offsetDelta()).putLong(e.timestamp()).putInt(e.coordinatorEpoch())
                    .putLong(e.currentTxnFirstOffset());
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), ProducerSnapshotReader.COUNT_OFFSET, b.capacity() - ProducerSnapshotReader.COUNT_OFFSET);
        b.putInt(ProducerSnapshotReader.CRC_OFFSET, (int) crc.getValue());
        return b.array();
    }

    /** An offset checkpoint's text: {@code 0}, the count, {@code "<topic> <partition> <offset>"} per entry. */
    public static String offsetCheckpoint(List<TopicPartitionOffset> entries) {
        StringBuilder s = new StringBuilder().append(OffsetCheckpoint.CURRENT_VERSION).append('\n')
                .append(entries.size()).append('\n');
        for (TopicPartitionOffset e : entries) {
            s.append(e.topic()).append(' ').append(e.partition()).append(' ').append(e.offset()).append('\n');
        }
        return s.toString();
    }

    /** A leader-epoch checkpoint's text: {@code 0}, the count, {@code "<epoch> <start offset>"} per entry. */
    public static String leaderEpochCheckpoint(List<EpochEntry> entries) {
        StringBuilder s = new StringBuilder().append(LeaderEpochCheckpoint.CURRENT_VERSION).append('\n')
                .append(entries.size()).append('\n');
        for (EpochEntry e : entries) {
            s.append(e.epoch()).append(' ').append(e.startOffset()).append('\n');
        }
        return s.toString();
    }

    /** Writes {@code text} (UTF-8) as {@link #write(Path, byte[])} does. */
    public static void write(Path target, String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code target}'s name + {@code .tmp}, syncs, and renames it to {@code target}. */
    public static void write(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }
}
