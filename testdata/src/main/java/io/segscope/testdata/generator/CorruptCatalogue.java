package io.segscope.testdata.generator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Writes {@code testdata/corrupt/}: damaged copies of committed corpus and synthetic files, one
 * directory per malformation, and the README table saying what {@code segscope verify} must
 * report for each (kind, file, byte position, skipped bytes, lost offsets). Every case starts
 * from bytes a real broker or Kafka's own classes wrote and changes as little as possible;
 * positions are found by walking the entries of the source file, so the output is the same on
 * every run (the random bytes come from {@code new Random(seed)}).
 *
 * <p>Usage: {@code CorruptCatalogue [repository root]} (default: the working directory). Run it with
 * {@code mvn -B -q -pl testdata compile exec:java -Dexec.mainClass=io.segscope.testdata.generator.CorruptCatalogue}.
 */
public final class CorruptCatalogue {
    private static final String CONSUMER_OFFSETS = "testdata/synthetic/logdir/__consumer_offsets-0";
    private static final String LEGACY_GZIP = "testdata/corpus/legacy-3.9.1-ibp0.10.2-gzip/logdir/legacy-gzip-0";
    private static final String TXN_ORDERS = "testdata/corpus/kraft-4.4.0-plain/logdir/txn-orders-0";
    private static final String LOG = "00000000000000000000.log";
    private static final String INDEX = "00000000000000000000.index";
    private static final String TIME_INDEX = "00000000000000000000.timeindex";

    private final Path root;
    private final Path out;
    private final List<String> rows = new ArrayList<>();

    private CorruptCatalogue(Path root) {
        this.root = root;
        this.out = root.resolve("testdata/corrupt");
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        new CorruptCatalogue(root).run();
    }

    /** One entry of a .log file: its position, size and magic. */
    record Entry(int position, int size, byte magic, long offset) {
        int end() {
            return position + size;
        }
    }

    /** The entries of a whole, undamaged .log file. */
    static List<Entry> entries(byte[] log) {
        ByteBuffer buf = ByteBuffer.wrap(log);
        List<Entry> out = new ArrayList<>();
        int p = 0;
        while (p + 17 <= log.length) {
            int size = buf.getInt(p + 8) + 12;
            out.add(new Entry(p, size, buf.get(p + 16), buf.getLong(p)));
            p += size;
        }
        return out;
    }

    private void run() throws IOException {
        if (Files.exists(out)) {
            try (Stream<Path> s = Files.walk(out)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    if (!p.equals(out)) {
                        Files.delete(p);
                    }
                }
            }
        }
        Files.createDirectories(out);
        byte[] log = read(CONSUMER_OFFSETS, LOG);
        List<Entry> e = entries(log);
        Entry v2a = e.get(10);   // offsets 16..19, magic 2, uncompressed
        Entry v2b = e.get(11);   // offsets 20..21, magic 2, gzip
        Entry v2c = e.get(12);   // offsets 22..24, magic 2, uncompressed, the last batch

        // 1. truncation in the middle of the last batch: a torn tail
        Path dir = copy("truncated-mid-batch", CONSUMER_OFFSETS);
        int cut = v2c.position() + v2c.size() / 2;
        write(dir, LOG, java.util.Arrays.copyOf(log, cut));
        row("truncated-mid-batch", dir, LOG, "the file ends " + (cut - v2c.position()) + " bytes into its last batch (offsets 22..24)",
                "truncated", "warning", v2c.position(), "[" + v2c.position() + ", " + cut + ")", "22..24");

        // 2. zero-filled tail: the last two batches zeroed and 1024 zero bytes appended
        dir = copy("zero-filled-tail", CONSUMER_OFFSETS);
        byte[] zero = java.util.Arrays.copyOf(log, log.length + 1024);
        java.util.Arrays.fill(zero, v2b.position(), zero.length, (byte) 0);
        write(dir, LOG, zero);
        row("zero-filled-tail", dir, LOG, "zero bytes from the batch of offsets 20..21 to the end (+1024 bytes)",
                "zero-tail", "warning", v2b.position(), "[" + v2b.position() + ", " + zero.length + ")", "20..");

        // 3. one flipped byte inside the records of an uncompressed v2 batch
        dir = copy("flipped-byte-in-records", CONSUMER_OFFSETS);
        byte[] flipped = log.clone();
        int at = v2a.position() + 61 + 100;
        flipped[at] ^= 0x5a;
        write(dir, LOG, flipped);
        row("flipped-byte-in-records", dir, LOG, "byte " + at + " (inside the records of the batch of offsets 16..19) XOR 0x5a",
                "crc-mismatch + resync", "error", v2a.position(), "[" + v2a.position() + ", " + v2b.position() + ")", "16..19");

        // 4. batch length far past the end of the file, good batches after it
        dir = copy("bad-batch-length", CONSUMER_OFFSETS);
        byte[] badLength = log.clone();
        ByteBuffer.wrap(badLength).putInt(v2a.position() + 8, 0x7fff0000);
        write(dir, LOG, badLength);
        row("bad-batch-length", dir, LOG, "batchLength of the batch of offsets 16..19 set to 0x7fff0000",
                "batch-too-large + resync", "error", v2a.position(), "[" + v2a.position() + ", " + v2b.position() + ")", "16..19");

        // 5. bad magic
        dir = copy("bad-magic", CONSUMER_OFFSETS);
        byte[] badMagic = log.clone();
        badMagic[v2b.position() + 16] = 7;
        write(dir, LOG, badMagic);
        row("bad-magic", dir, LOG, "magic of the batch of offsets 20..21 set to 7",
                "invalid-magic + resync", "error", v2b.position(), "[" + v2b.position() + ", " + v2c.position() + ")", "20..21");

        // 6. CRC-valid header that contradicts its records: recordsCount 5 for 3 records, CRC recomputed
        dir = copy("records-count-crc-valid", CONSUMER_OFFSETS);
        byte[] badCount = log.clone();
        ByteBuffer bb = ByteBuffer.wrap(badCount);
        bb.putInt(v2c.position() + 57, 5);
        CRC32C crc32c = new CRC32C();
        crc32c.update(badCount, v2c.position() + 21, v2c.size() - 21);
        bb.putInt(v2c.position() + 17, (int) crc32c.getValue());
        write(dir, LOG, badCount);
        row("records-count-crc-valid", dir, LOG, "recordsCount of the batch of offsets 22..24 set to 5 (it holds 3), CRC recomputed",
                "invalid-record-count", "error", v2c.position(), "", "");

        // 6b. a CRC-valid offset commit whose value does not parse: the group coordinator fails to load the partition
        dir = copy("malformed-offset-commit-value", CONSUMER_OFFSETS);
        byte[] badValue = log.clone();
        ByteBuffer mb = ByteBuffer.wrap(badValue);
        int[] cur = {v2a.position() + 61};         // the batch's records (uncompressed)
        int valuePos = -1;
        int valueOffsetDelta = -1;
        for (int i = 0; i < mb.getInt(v2a.position() + 57) && valuePos < 0; i++) {
            int length = varint(badValue, cur);     // record length
            int next = cur[0] + length;
            cur[0]++;                               // attributes
            varint(badValue, cur);                  // timestampDelta
            int offsetDelta = varint(badValue, cur);
            int keyLen = varint(badValue, cur);
            cur[0] += Math.max(keyLen, 0);
            int valueLen = varint(badValue, cur);
            if (valueLen >= 10) {                   // the first record with a value (not a tombstone)
                valuePos = cur[0];
                valueOffsetDelta = offsetDelta;
            }
            cur[0] = next;
        }
        short valueVersion = mb.getShort(valuePos);
        int lengthPos = valuePos + 2 + 8 + (valueVersion >= 3 ? 4 : 0);
        if (valueVersion >= 4) {
            badValue[lengthPos] = 0x7f;             // compact metadata string of 126 bytes: runs past the value
        } else {
            mb.putShort(lengthPos, Short.MAX_VALUE); // metadata string of 32767 bytes: runs past the value
        }
        CRC32C valueCrc = new CRC32C();
        valueCrc.update(badValue, v2a.position() + 21, v2a.size() - 21);
        mb.putInt(v2a.position() + 17, (int) valueCrc.getValue());
        write(dir, LOG, badValue);
        row("malformed-offset-commit-value", dir, LOG, "the value (v" + valueVersion + ") of offset "
                + (v2a.offset() + valueOffsetDelta) + ", the first non-tombstone record of the batch of offsets 16..19: its metadata string length at byte " + lengthPos + " set past the value's end, CRC"
                + " recomputed; Kafka's group coordinator fails to load the partition", "invalid-coordinator-value", "error",
                v2a.position(), "", "");

        // 7. offset index entry pointing inside a batch
        dir = copy("index-inside-batch", CONSUMER_OFFSETS);
        byte[] index = read(CONSUMER_OFFSETS, INDEX);
        ByteBuffer ib = ByteBuffer.wrap(index);
        ib.putInt(4, ib.getInt(4) + 10);
        write(dir, INDEX, index);
        row("index-inside-batch", dir, INDEX, "entry 0 position moved 10 bytes into its batch (" + (ib.getInt(4) - 10) + " -> "
                + ib.getInt(4) + ")", "index-mismatch", "error", 0, "", "");

        // 8. time index entries out of order: entries 1 and 2 swapped
        dir = copy("time-index-out-of-order", CONSUMER_OFFSETS);
        byte[] time = read(CONSUMER_OFFSETS, TIME_INDEX);
        byte[] swapped = time.clone();
        System.arraycopy(time, 12, swapped, 24, 12);
        System.arraycopy(time, 24, swapped, 12, 12);
        write(dir, TIME_INDEX, swapped);
        row("time-index-out-of-order", dir, TIME_INDEX, "entries 1 and 2 swapped", "index-order", "error", 24, "", "");

        // 9. producer snapshot with a bad CRC
        dir = copy("snapshot-bad-crc", LEGACY_GZIP);
        String snapshot = "00000000000000000100.snapshot";
        byte[] snap = read(LEGACY_GZIP, snapshot);
        snap[5] ^= 0x01;
        write(dir, snapshot, snap);
        row("snapshot-bad-crc", dir, snapshot, "lowest bit of the stored CRC flipped", "crc-mismatch", "error", 2, "", "");

        // 10. damage in the middle of a segment, good batches after it
        dir = copy("mid-segment-damage", CONSUMER_OFFSETS);
        byte[] damaged = log.clone();
        byte[] noise = new byte[800];
        new Random(20261130L).nextBytes(noise);
        System.arraycopy(noise, 0, damaged, 700, noise.length);
        write(dir, LOG, damaged);
        Entry hit = e.get(5);      // offset 7 (a gzip wrapper of 5..7), whose header survives
        Entry next = e.get(8);     // offset 12, the first entry after the noise
        row("mid-segment-damage", dir, LOG, "bytes 700..1499 overwritten with random bytes (seed 20261130): the ends of"
                        + " three entries", "crc-mismatch + resync", "error", hit.position(),
                "[" + hit.position() + ", " + next.position() + ")", "5..11");

        // 11. a legacy inner message with a bad CRC inside a gzip wrapper
        dir = copy("legacy-inner-bad-crc", LEGACY_GZIP);
        byte[] legacy = read(LEGACY_GZIP, LOG);
        List<Entry> le = entries(legacy);
        Entry last = le.get(le.size() - 1);
        byte[] rebuilt = breakInnerCrc(legacy, last, 1);
        write(dir, LOG, rebuilt);
        row("legacy-inner-bad-crc", dir, LOG, "gzip wrapper of offsets 90..99 (the last entry): inner message 1's CRC flipped,"
                + " recompressed, wrapper CRC recomputed", "crc-mismatch", "error", last.position(), "", "");

        // 12. a leader-epoch-checkpoint that disagrees with the batches
        dir = copy("leader-epoch-mismatch", CONSUMER_OFFSETS);
        String epochs = "0\n1\n0 14\n";
        Files.writeString(dir.resolve("leader-epoch-checkpoint"), epochs, StandardCharsets.UTF_8);
        row("leader-epoch-mismatch", dir, "leader-epoch-checkpoint", "epoch 0 said to start at 14; its first batch is at 16",
                "leader-epoch-mismatch", "warning", 4, "", "");

        // 13. leftovers: an orphan index, a .tmp checkpoint and unfinished cleaner output
        dir = copy("leftovers", CONSUMER_OFFSETS);
        Files.write(dir.resolve("00000000000000000500.index"), new byte[0]);
        Files.writeString(dir.resolve("leader-epoch-checkpoint.tmp"), "0\n1\n0 16\n", StandardCharsets.UTF_8);
        Files.write(dir.resolve("00000000000000000000.log.cleaned"), java.util.Arrays.copyOf(log, v2a.position()));
        row("leftovers", dir, "00000000000000000500.index", "index file with no .log", "orphan-index", "warning", -1, "", "");
        row("leftovers", dir, "leader-epoch-checkpoint.tmp", "checkpoint write never renamed", "leftover-tmp", "warning", -1, "", "");
        row("leftovers", dir, "00000000000000000000.log.cleaned", "unfinished cleaner output", "incomplete-cleaner-output",
                "warning", -1, "", "");

        // 14. an aborted-transaction index entry naming the wrong producer: its ABORT marker is another's
        dir = copy("txn-index-wrong-producer", TXN_ORDERS);
        String txnIndex = "00000000000000000000.txnindex";
        byte[] txn = read(TXN_ORDERS, txnIndex);
        ByteBuffer tb = ByteBuffer.wrap(txn);
        long producer = tb.getLong(34 + 2);
        tb.putLong(34 + 2, producer + 1);
        write(dir, txnIndex, txn);
        row("txn-index-wrong-producer", dir, txnIndex, "entry 1's producerId " + producer + " changed to " + (producer + 1),
                "txn-marker-missing", "error", 34, "", "");

        writeReadme();
    }

    /**
     * Rebuilds a magic 0/1 gzip wrapper with inner message {@code victim}'s CRC flipped: the inner
     * set is decompressed, changed, recompressed with the JDK's gzip (what Kafka's GZIP codec
     * reads), and the wrapper's value length, size and CRC are rewritten. The entry must be the
     * file's last, since its size changes.
     */
    static byte[] breakInnerCrc(byte[] log, Entry wrapper, int victim) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(log);
        int msg = wrapper.position() + 12;
        byte magic = log[msg + 4];
        int keyAt = msg + (magic == 0 ? 6 : 14);
        int keyLength = buf.getInt(keyAt);
        int valueAt = keyAt + 4 + Math.max(0, keyLength);
        int valueLength = buf.getInt(valueAt);
        byte[] inner;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(log, valueAt + 4, valueLength))) {
            inner = in.readAllBytes();
        }
        List<Entry> innerEntries = entries(inner);
        inner[innerEntries.get(victim).position() + 12] ^= 0x01; // first byte of its CRC
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(z)) {
            gz.write(inner);
        }
        byte[] value = z.toByteArray();
        int head = valueAt - wrapper.position();
        ByteBuffer outBuf = ByteBuffer.allocate(head + 4 + value.length);
        outBuf.put(log, wrapper.position(), head).putInt(value.length).put(value);
        byte[] entry = outBuf.array();
        ByteBuffer eb = ByteBuffer.wrap(entry);
        eb.putInt(8, entry.length - 12);
        CRC32 crc = new CRC32();
        crc.update(entry, 16, entry.length - 16);
        eb.putInt(12, (int) crc.getValue());
        byte[] result = java.util.Arrays.copyOf(log, wrapper.position() + entry.length);
        System.arraycopy(entry, 0, result, wrapper.position(), entry.length);
        return result;
    }

    /** Reads the zigzag varint at {@code at[0]} and moves past it. */
    private static int varint(byte[] b, int[] at) {
        int value = 0;
        int shift = 0;
        while (true) {
            byte x = b[at[0]++];
            value |= (x & 0x7f) << shift;
            if (x >= 0) {
                break;
            }
            shift += 7;
        }
        return (value >>> 1) ^ -(value & 1);
    }

    private byte[] read(String dir, String name) throws IOException {
        return Files.readAllBytes(root.resolve(dir).resolve(name));
    }

    /** Copies the files of a partition dir into {@code corrupt/<name>/<partition dir name>}. */
    private Path copy(String name, String source) throws IOException {
        Path src = root.resolve(source);
        Path dst = out.resolve(name).resolve(src.getFileName().toString());
        Files.createDirectories(dst);
        try (Stream<Path> s = Files.list(src)) {
            for (Path p : s.sorted().toList()) {
                Files.copy(p, dst.resolve(p.getFileName().toString()));
            }
        }
        return dst;
    }

    private static void write(Path dir, String name, byte[] bytes) {
        try {
            Files.write(dir.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void row(String name, Path dir, String file, String malformation, String kind, String severity, long position,
                     String skipped, String lost) {
        String rel = out.relativize(dir.resolve(file)).toString();
        rows.add("| `" + name + "` | `" + rel + "` | " + malformation + " | `" + kind + "` | " + severity + " | "
                + position + " | " + skipped + " | " + lost + " |");
    }

    private void writeReadme() throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("""
                # Corruption catalogue

                Damaged copies of committed corpus and synthetic files, one directory per malformation, each
                laid out as a partition dir (so that checks needing siblings, such as index against log, run).
                `segscope verify --format jsonl <case dir>` must report the kind at the position given (the
                first kind named; `+ resync` means a `resync` finding follows at the end of the skipped
                range). Positions are byte positions in the file named; -1 means the whole file. Skipped bytes
                are `[from, to)`; lost offsets are inclusive (`20..` = from 20, last unknown). Other findings
                may follow from the same damage (an index entry pointing into the skipped bytes, say).

                Sources: `testdata/synthetic/logdir/__consumer_offsets-0` (13 entries of magic 0, 1 and 2,
                written by Kafka 4.4.0's classes), `testdata/corpus/legacy-3.9.1-ibp0.10.2-gzip/logdir/legacy-gzip-0`
                (magic 1 gzip wrappers written by a 3.9.1 broker) and
                `testdata/corpus/kraft-4.4.0-plain/logdir/txn-orders-0` (transactions, with aborts, written by a
                4.4.0 broker).

                Regenerate (deterministic; `git status` stays clean):

                ```
                mvn -B -q -pl testdata compile exec:java -Dexec.mainClass=io.segscope.testdata.generator.CorruptCatalogue
                ```

                Code: `testdata/src/main/java/io/segscope/testdata/generator/CorruptCatalogue.java`. Test:
                `inspector/src/test/java/io/segscope/inspector/VerifyCatalogueTest.java`.

                | case | file | malformation | kind | severity | position | skipped bytes | lost offsets |
                |---|---|---|---|---|---|---|---|
                """);
        for (String r : rows) {
            sb.append(r).append('\n');
        }
        Files.writeString(out.resolve("README.md"), sb.toString(), StandardCharsets.UTF_8);
    }
}
