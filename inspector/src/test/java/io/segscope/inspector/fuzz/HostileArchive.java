package io.segscope.inspector.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.segscope.testdata.Corpus;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Archives built from a fuzzer's choices to attack the archive reader: names that climb out
 * ({@code ../}, absolute, {@code ..\}), symbolic and hard links (out of the archive, to each
 * other, in loops), the same name twice, declared sizes far beyond the data, deep nesting and
 * many entries, as a {@code .tar}, {@code .tar.gz}, {@code .tgz} or {@code .zip}. The contents are
 * Kafka files of the corpus (unmodified), the fuzzer's bytes, or nothing.
 */
public final class HostileArchive {
    public enum Kind {
        TAR("a.tar"), TAR_GZ("a.tar.gz"), TGZ("a.tgz"), ZIP("a.zip");

        public final String file;

        Kind(String file) {
            this.file = file;
        }
    }

    public enum Type { FILE, DIR, SYMLINK, HARDLINK }

    /** One entry; {@code declaredSize} is what the header says (-1: the content's length). */
    public record Entry(String name, Type type, byte[] content, String link, long declaredSize) {
    }

    private static final Path RUN = Corpus.corpus().resolve("kraft-3.9.1-plain/logdir");
    private static final List<byte[]> CONTENTS = contents();
    private static final String[] PARTS = {"logdir", "logdir", "txn-orders-0", "__consumer_offsets-0", "__cluster_metadata-0",
        "..", ".", "", "d", "00000000000000000000.log", "00000000000000000000.index", "00000000000000000000.timeindex",
        "00000000000000000000.txnindex", "00000000000000000050.snapshot", "00000000000000000100-0000000001.checkpoint",
        "bootstrap.checkpoint", "meta.properties", ".kafka_cleanshutdown", "leader-epoch-checkpoint", "partition.metadata",
        "recovery-point-offset-checkpoint", "..\\..\\outside\\secret.log", "..\\", "C:\\outside", "outside", "secret.log",
        "secret-0", "a", "b", "00000000000000000000.log.deleted", "txn-orders-0.abc-delete"};
    private static final String[] PREFIXES = {"", "", "", "", "/", "./", "../", "../../", "..\\", "\\", "//", "./../",
        ArchiveReading.SANDBOX + "/", ArchiveReading.OUTSIDE + "/"};
    private static final long[] ENORMOUS = {1L << 33, (1L << 33) - 1, Long.MAX_VALUE, 1L << 40, Integer.MAX_VALUE + 1L,
        Integer.MAX_VALUE, 0xFFFF_FFFEL, 1 << 28, 512 * 1000};

    private HostileArchive() {
    }

    private static List<byte[]> contents() {
        List<byte[]> out = new ArrayList<>();
        try {
            for (String f : List.of("txn-orders-0/00000000000000000000.log", "txn-orders-0/00000000000000000000.index",
                    "txn-orders-0/00000000000000000000.timeindex", "txn-orders-0/00000000000000000000.txnindex",
                    "txn-orders-0/00000000000000000050.snapshot", "txn-orders-0/leader-epoch-checkpoint",
                    "txn-orders-0/partition.metadata", "meta.properties", "bootstrap.checkpoint", ".kafka_cleanshutdown",
                    "recovery-point-offset-checkpoint")) {
                out.add(Files.readAllBytes(RUN.resolve(f)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The entries the fuzzer chooses. */
    static List<Entry> entries(FuzzedDataProvider data) {
        List<Entry> entries = new ArrayList<>();
        boolean many = data.consumeInt(0, 15) == 0;
        int count = many ? data.consumeInt(100, 3000) : data.consumeInt(0, 16);
        for (int i = 0; i < count && data.remainingBytes() > 0; i++) {
            if (!entries.isEmpty() && data.consumeInt(0, 5) == 0) {
                // the same name again, with other content
                Entry prev = entries.get(data.consumeInt(0, entries.size() - 1));
                entries.add(new Entry(prev.name(), prev.type(), content(data), prev.link(), -1));
                continue;
            }
            Type type = data.pickValue(Type.values());
            String name = name(data);
            String link = type == Type.SYMLINK || type == Type.HARDLINK ? link(data, entries, name) : null;
            long declared = type == Type.FILE && data.consumeInt(0, 7) == 0 ? ENORMOUS[data.consumeInt(0, ENORMOUS.length - 1)] : -1;
            entries.add(new Entry(name, type, type == Type.FILE ? content(data) : new byte[0], link, declared));
        }
        return entries;
    }

    private static String name(FuzzedDataProvider data) {
        StringBuilder b = new StringBuilder(PREFIXES[data.consumeInt(0, PREFIXES.length - 1)]);
        if (data.consumeInt(0, 9) == 0) {
            // deep nesting, past what a recursive walk of the tree survives
            b.append("d/".repeat(data.consumeBoolean() ? data.consumeInt(1, 400) : data.consumeInt(1000, 30_000)));
        }
        if (data.consumeInt(0, 19) == 0) {
            b.append("x".repeat(data.consumeInt(100, 300))).append('/');
        }
        int parts = data.consumeInt(1, 4);
        for (int i = 0; i < parts; i++) {
            if (i > 0) {
                b.append('/');
            }
            b.append(data.consumeInt(0, 24) == 0 ? data.consumeString(12) : PARTS[data.consumeInt(0, PARTS.length - 1)]);
        }
        return b.toString();
    }

    private static String link(FuzzedDataProvider data, List<Entry> entries, String self) {
        return switch (data.consumeInt(0, 6)) {
            case 0 -> "../outside/secret.log";
            case 1 -> ArchiveReading.OUTSIDE.resolve("secret-0/00000000000000000000.log").toString();
            case 2 -> ArchiveReading.OUTSIDE.toString();
            case 3 -> self;
            case 4 -> entries.isEmpty() ? "a" : entries.get(data.consumeInt(0, entries.size() - 1)).name();
            case 5 -> "../".repeat(data.consumeInt(1, 20)) + "outside/logdir";
            default -> data.consumeString(40);
        };
    }

    private static byte[] content(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 3)) {
            case 0 -> new byte[0];
            case 1 -> data.consumeBytes(data.consumeInt(0, 600));
            default -> CONTENTS.get(data.consumeInt(0, CONTENTS.size() - 1));
        };
    }

    /** The archive's bytes. */
    public static byte[] build(Kind kind, List<Entry> entries) {
        try {
            return switch (kind) {
                case TAR -> tar(entries);
                case TAR_GZ, TGZ -> gzip(tar(entries));
                case ZIP -> zip(entries);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GzipCompressorOutputStream gz = new GzipCompressorOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] tar(List<Entry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            tar.setAddPaxHeadersForNonAsciiNames(true);
            for (Entry e : entries) {
                TarArchiveEntry t = switch (e.type()) {
                    case FILE -> new TarArchiveEntry(e.name(), true);
                    case DIR -> new TarArchiveEntry(e.name().endsWith("/") ? e.name() : e.name() + "/", true);
                    case SYMLINK -> new TarArchiveEntry(e.name(), TarConstants.LF_SYMLINK, true);
                    case HARDLINK -> new TarArchiveEntry(e.name(), TarConstants.LF_LINK, true);
                };
                if (e.link() != null) {
                    t.setLinkName(e.link());
                }
                t.setSize(e.type() == Type.FILE ? e.content().length : 0);
                tar.putArchiveEntry(t);
                if (e.type() == Type.FILE) {
                    tar.write(e.content());
                }
                tar.closeArchiveEntry();
            }
        }
        byte[] bytes = out.toByteArray();
        declareTarSizes(bytes, entries);
        return bytes;
    }

    /**
     * Rewrites the size field of the headers whose entry declares a size of its own (octal, or
     * base-256 past 8 GiB), with the header's checksum: the data that follows stays as it was.
     */
    private static void declareTarSizes(byte[] tar, List<Entry> entries) {
        int entry = 0;
        int at = 0;
        while (at + 512 <= tar.length && entry < entries.size()) {
            if (tar[at] == 0) {
                return; // the end-of-archive blocks
            }
            long size = parseOctal(tar, at + 124, 12);
            byte type = tar[at + 156];
            boolean meta = type == 'x' || type == 'g' || type == 'L' || type == 'K';
            if (!meta) {
                long declared = entries.get(entry++).declaredSize();
                if (declared >= 0) {
                    writeSize(tar, at, declared);
                }
            }
            at += 512 + (int) ((size + 511) / 512 * 512);
        }
    }

    private static long parseOctal(byte[] b, int off, int len) {
        long v = 0;
        for (int i = off; i < off + len && b[i] >= '0' && b[i] <= '7'; i++) {
            v = v * 8 + (b[i] - '0');
        }
        return v;
    }

    private static void writeSize(byte[] tar, int header, long size) {
        if (size < 01000_0000_0000L) {
            byte[] octal = String.format("%011o", size).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(octal, 0, tar, header + 124, 11);
            tar[header + 135] = 0;
        } else {
            Arrays.fill(tar, header + 124, header + 136, (byte) 0);
            tar[header + 124] = (byte) 0x80;
            ByteBuffer.wrap(tar, header + 128, 8).putLong(size);
        }
        Arrays.fill(tar, header + 148, header + 156, (byte) ' ');
        long sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += tar[header + i] & 0xff;
        }
        byte[] chk = String.format("%06o", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(chk, 0, tar, header + 148, 6);
        tar[header + 154] = 0;
        tar[header + 155] = ' ';
    }

    private static byte[] zip(List<Entry> entries) throws IOException {
        SeekableInMemoryByteChannel channel = new SeekableInMemoryByteChannel();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(channel)) {
            for (Entry e : entries) {
                ZipArchiveEntry z = new ZipArchiveEntry(e.type() == Type.DIR && !e.name().endsWith("/") ? e.name() + "/" : e.name());
                byte[] content = e.link() != null ? e.link().getBytes(StandardCharsets.UTF_8) : e.content();
                if (e.type() == Type.SYMLINK) {
                    z.setUnixMode(0120777);
                }
                zip.putArchiveEntry(z);
                if (e.type() != Type.DIR) {
                    zip.write(content);
                }
                zip.closeArchiveEntry();
            }
        }
        byte[] bytes = Arrays.copyOf(channel.array(), (int) channel.size());
        declareZipSizes(bytes, entries);
        return bytes;
    }

    /** Rewrites the sizes in the central directory (what the reader believes) of entries that declare one. */
    private static void declareZipSizes(byte[] zip, List<Entry> entries) {
        ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = zip.length - 22;
        while (eocd >= 0 && b.getInt(eocd) != 0x06054b50) {
            eocd--;
        }
        if (eocd < 0) {
            return;
        }
        int at = b.getInt(eocd + 16);
        for (Entry e : entries) {
            if (at + 46 > zip.length || b.getInt(at) != 0x02014b50) {
                return;
            }
            if (e.declaredSize() >= 0) {
                int size = (int) Math.min(e.declaredSize(), 0xFFFF_FFFEL);
                b.putInt(at + 20, size);
                b.putInt(at + 24, size);
            }
            at += 46 + (b.getShort(at + 28) & 0xffff) + (b.getShort(at + 30) & 0xffff) + (b.getShort(at + 32) & 0xffff);
        }
    }
}
