package io.segscope.testdata.generator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A partition dir copied the way an operator copies a live disk: file by file with plain Java IO,
 * in name order, while the broker keeps appending (no snapshot, no lock, nothing the broker
 * notices). So the files of one copy are read at different moments: a segment's {@code .index}
 * before its {@code .log}, its {@code .timeindex} after.
 *
 * <p>The active segment's {@code .log} is read in 64 KiB chunks, as {@code cp} reads, until a read
 * finds the end of the file. Its last read is timed: once the copy has caught up with the broker
 * it waits until the file grows (an append has begun: the kernel raises the file size as each
 * page cache folio of a write is filled) and reads on to the end again at once, so the copy ends
 * where the broker's write had got to, which is in the middle of a batch when the write was
 * still going on. Whether it did is read from the copy ({@link #tail}); the caller retries.
 */
final class LiveCopy {
    private static final int CHUNK = 64 * 1024;
    /** Pause before an index of the active segment that comes after its .log in name order. */
    private static final long LATER_INDEX_PAUSE_MS = 250;

    private final long t0 = System.nanoTime();

    /** Milliseconds since this copy began, for the record of what was read when. */
    private long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /**
     * Copies {@code src} (a partition dir of the live broker) to {@code dst}: every file in it at
     * the moment it is listed, in name order. A file the broker deletes before its turn is
     * recorded as vanished, as {@code cp} would complain and go on.
     *
     * @param timeLastRead wait for an append before the active .log's last read (see above)
     * @return per file: size copied, when it was read, and for .log files {@link #tail}
     */
    Map<String, Object> copyPartition(Path src, Path dst, boolean timeLastRead) throws IOException, InterruptedException {
        Files.createDirectories(dst);
        List<Path> files;
        try (Stream<Path> s = Files.list(src)) {
            files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        String active = null;
        for (Path f : files) {
            String n = f.getFileName().toString();
            if (n.endsWith(".log")) {
                active = n.substring(0, n.length() - ".log".length());
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        boolean logCopied = false;
        for (Path f : files) {
            String n = f.getFileName().toString();
            boolean ofActive = active != null && n.startsWith(active + ".");
            Map<String, Object> fact = new LinkedHashMap<>();
            if (ofActive && logCopied && (n.endsWith(".timeindex") || n.endsWith(".index"))) {
                Thread.sleep(LATER_INDEX_PAUSE_MS);
            }
            fact.put("startMs", now());
            try {
                if (ofActive && n.endsWith(".log")) {
                    fact.putAll(copyGrowing(f, dst.resolve(n), timeLastRead));
                    logCopied = true;
                } else {
                    byte[] bytes = Files.readAllBytes(f);
                    Files.write(dst.resolve(n), bytes);
                    fact.put("size", bytes.length);
                }
            } catch (NoSuchFileException gone) {
                fact.put("vanished", true);
                out.put(n, fact);
                continue;
            }
            fact.put("endMs", now());
            if (n.endsWith(".log")) {
                fact.put("tail", tail(dst.resolve(n)));
            }
            out.put(n, fact);
        }
        return out;
    }

    private Map<String, Object> copyGrowing(Path src, Path dst, boolean timeLastRead) throws IOException, InterruptedException {
        Map<String, Object> fact = new LinkedHashMap<>();
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);
        try (FileChannel in = FileChannel.open(src, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(dst, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.TRUNCATE_EXISTING)) {
            long pos = 0;
            int chunks = 0;
            while (true) {
                buf.clear();
                int n = in.read(buf, pos);
                if (n <= 0) {
                    break;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                pos += n;
                chunks++;
                Thread.sleep(1); // a copy slower than the page cache, so appends go on meanwhile
            }
            fact.put("sizeAtFirstEnd", pos);
            fact.put("chunksBeforeFirstEnd", chunks);
            if (timeLastRead) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (in.size() <= pos) {
                    if (System.nanoTime() > deadline) {
                        fact.put("noAppendWithin3s", true);
                        break;
                    }
                    Thread.onSpinWait();
                }
                while (true) {
                    buf.clear();
                    int n = in.read(buf, pos);
                    if (n <= 0) {
                        break;
                    }
                    buf.flip();
                    while (buf.hasRemaining()) {
                        out.write(buf);
                    }
                    pos += n;
                }
            }
            fact.put("size", pos);
            fact.put("sizeOfLiveFileJustAfter", in.size());
        }
        return fact;
    }

    /**
     * The batch framing of a copied {@code .log} (docs/format.md 1.2: baseOffset int64, batchLength
     * int32, then batchLength bytes): how many whole batches it holds, where the last whole one
     * ends, and whether bytes follow that do not make a whole batch (a torn tail), with what the
     * torn batch's header says when enough of it is there.
     */
    static Map<String, Object> tail(Path log) throws IOException {
        long size = Files.size(log);
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("size", size);
        ByteBuffer head = ByteBuffer.allocate(61).order(ByteOrder.BIG_ENDIAN);
        long pos = 0;
        int batches = 0;
        long lastBaseOffset = -1;
        long lastOffset = -1;
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            while (pos < size) {
                head.clear();
                int n = 0;
                while (head.hasRemaining()) {
                    int r = ch.read(head, pos + n);
                    if (r <= 0) {
                        break;
                    }
                    n += r;
                }
                if (n < 12) {
                    break;
                }
                long baseOffset = head.getLong(0);
                int length = head.getInt(8);
                long end = pos + 12 + length;
                if (end > size || length < 49) {
                    t.put("tornBaseOffset", baseOffset);
                    t.put("tornBatchLength", length);
                    t.put("tornBatchSizeWithHeader", 12L + length);
                    break;
                }
                lastBaseOffset = baseOffset;
                lastOffset = baseOffset + head.getInt(23);
                batches++;
                pos = end;
            }
        }
        t.put("wholeBatches", batches);
        t.put("lastWholeBatchBaseOffset", lastBaseOffset);
        t.put("lastWholeBatchLastOffset", lastOffset);
        t.put("wholeBatchesEndAt", pos);
        t.put("torn", pos < size);
        if (pos < size) {
            t.put("tornAt", pos);
            t.put("tornBytesPresent", size - pos);
        }
        return t;
    }

    /** Every file below {@code dir}, as (relative path, size), sorted: what a copy holds. */
    static List<Map<String, Object>> sizes(Path dir) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).sorted().collect(Collectors.toList())) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("path", dir.relativize(f).toString());
                m.put("size", Files.size(f));
                out.add(m);
            }
        }
        return out;
    }
}
