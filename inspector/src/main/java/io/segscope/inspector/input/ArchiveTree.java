package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.StreamSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.SegmentWalk;
import io.segscope.format.walk.TransactionOutcomes;
import org.apache.commons.compress.archivers.ArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarFile;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorInputStream;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An archive of a log dir (or of a partition dir, or of several log dirs) seen as a tree of
 * {@link FileEntry}s, read in place with commons-compress: nothing is extracted to disk.
 *
 * <p>{@code .zip} and plain {@code .tar} are random access: any entry opens directly.
 * Compressed tars ({@code .tar.gz}/{@code .tgz}, {@code .tar.bz2}, {@code .tar.zst}) are one
 * stream, decompressed twice in all, whatever their size and the order they store their files in:
 * <ol>
 * <li>the listing pass reads every entry header and keeps the bytes of Kafka's small side files
 *     (indexes, snapshots, checkpoints: what is read beside a segment; not the segments, not
 *     foreign files), up to {@link #CACHE_ENTRY_MAX} each and {@link #CACHE_BUDGET} in all. An
 *     offset or time index is kept up to its all-zero tail, rounded up to whole entries, and the
 *     tail only by its length ({@link ByteSource#withZeroTail}): the 10 MiB preallocated index of
 *     an open segment costs its few entries, and no reader rebuilds the zeros. When asked
 *     ({@link #open(Path, ReaderOptions)}, dump telling transactions), the same pass reads the
 *     transaction markers of every {@code .log} entry ({@link #transactionOutcomes}, up to
 *     {@link #MARKER_BUDGET} markers), so that no partition is pre-scanned by a second read;</li>
 * <li>the {@code .log} entries (and side files past the budget) are then read from one forward
 *     stream. Readers take directories and partitions in archive order ({@link #position}:
 *     {@code verify} through {@code Verifier.readOrder}, {@code dump} through
 *     {@code LogScanner.withOrder}), the segments of a partition by base offset. Entries of the
 *     same directory passed on the way to the one asked for are kept in a bounded cache
 *     ({@link #SKIP_CACHE_BUDGET}, entries up to {@link #SKIP_CACHE_ENTRY_MAX}), so that segments
 *     stored out of base-offset order (tar stores a directory in the file system's order) cost no
 *     restart. The stream starts over ({@link #restarts()}) only when an entry behind it is asked
 *     for and not cached: a partition whose out-of-order segments are larger than that cache.</li>
 * </ol>
 * Memory is thus bounded, whatever the archive's size, by the listing cache (64 MiB), the skip
 * cache (64 MiB), the markers (at most 2 Mi of them, 16 bytes each: 32 MiB), one read window (the
 * largest batch read at once, 1 MiB for Kafka's default {@code max.message.bytes}), and the entry
 * headers (a few hundred bytes per entry): about 200 MiB of heap at most, which
 * the launcher's default {@code -Xmx512m} holds with room for the readers.
 *
 * <p>A truncated archive (a copy cut short) is read up to the cut: every complete entry is
 * listed, the partial one is left out, and {@link #truncation()} says where the archive ends.
 */
public final class ArchiveTree implements Closeable {
    /** The largest batch read from an archive entry at once (a hostile size cannot cost more). */
    public static final int MAX_WINDOW = 256 * 1024 * 1024;
    /** Bytes (zero tails trimmed) of the non-segment entries kept from the listing pass. */
    static final long CACHE_BUDGET = 64L * 1024 * 1024;
    /** The largest entry kept by the listing pass. */
    static final long CACHE_ENTRY_MAX = 16L * 1024 * 1024;
    /** Bytes of entries skipped in the forward stream kept for a later open. */
    static final long SKIP_CACHE_BUDGET = 64L * 1024 * 1024;
    /** The largest entry kept while skipping. */
    static final long SKIP_CACHE_ENTRY_MAX = 16L * 1024 * 1024;
    /** Transaction markers kept from the listing pass (16 bytes each at most), when asked for. */
    static final long MARKER_BUDGET = 2L * 1024 * 1024;
    /** The separator between an archive and a path inside it, as segscope prints entry names. */
    public static final String SEPARATOR = "!/";

    private enum Kind { ZIP, TAR, TAR_STREAM }

    /** Where a truncated archive ends. */
    public record Truncation(String archive, long archiveBytes, long tarBytes, String entry, long entryBytes,
                             long entrySize, String lastComplete, String cause) {
        /** The file to name: the partial entry when there is one, else the archive. */
        public String file() {
            return entry != null ? entry : archive;
        }

        /** The byte position to name: in the partial entry, else in the archive's tar data. */
        public long position() {
            return entry != null ? entryBytes : tarBytes;
        }

        public String message() {
            String where = "archive truncated: " + archive + " ends after " + archiveBytes + " bytes (" + tarBytes
                    + " bytes of tar data)";
            String what = entry != null
                    ? ", inside entry " + entry + " (" + entryBytes + " of its " + entrySize + " bytes present); that entry is"
                    + " not read, the complete entries before it are"
                    : ", after the complete entry " + (lastComplete == null ? "(none)" : lastComplete)
                    + "; the entries after it are missing";
            return where + what + (cause == null ? "" : " (" + cause + ")");
        }
    }

    private final Path archive;
    private Kind kind;
    private final Node root;
    private final List<Node> entries = new ArrayList<>();
    private ZipFile zip;
    private TarFile tar;
    private TarArchiveInputStream stream;
    private int streamIndex = -1;
    private long cached;
    private final LinkedHashMap<Integer, byte[]> skipCache = new LinkedHashMap<>(16, 0.75f, true);
    private long skipCached;
    private int restarts;
    private final ReaderOptions markerOptions;
    private SegmentWalk markerWalk;
    private long markers;
    private Truncation truncation;

    private ArchiveTree(Path archive, Kind kind, ReaderOptions markerOptions) {
        this.archive = archive;
        this.kind = kind;
        this.markerOptions = markerOptions;
        this.root = new Node(this, null, archive.getFileName().toString(), archive.toString(), true, 0, -1, null);
    }

    /** True for the archive names segscope reads. */
    public static boolean isArchive(Path path) {
        Path name = path.getFileName();
        if (name == null) {
            return false;
        }
        String n = name.toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".zip") || n.endsWith(".tar") || n.endsWith(".tar.gz") || n.endsWith(".tgz")
                || n.endsWith(".tar.bz2") || n.endsWith(".tbz2") || n.endsWith(".tar.zst");
    }

    /**
     * Splits a PATH naming an entry inside an archive, as segscope prints them
     * ({@code logs.tar.gz!/logdir/__consumer_offsets-0/00000000000000000000.log}), into the archive
     * and the path inside it; empty when {@code arg} names no archive entry.
     */
    public static Optional<String[]> splitEntryPath(String arg) {
        int at = arg.indexOf(SEPARATOR);
        while (at > 0) {
            String file = arg.substring(0, at);
            if (isArchive(Path.of(file))) {
                return Optional.of(new String[]{file, arg.substring(at + SEPARATOR.length())});
            }
            at = arg.indexOf(SEPARATOR, at + 1);
        }
        return Optional.empty();
    }

    /** Lists the archive; its entries are opened lazily. Close the tree when done. */
    public static ArchiveTree open(Path archive) {
        return open(archive, null);
    }

    /**
     * Lists the archive; with {@code markers} (the options records are read with), the listing pass
     * of a compressed tar also reads the transaction markers of every {@code .log} entry
     * ({@link #transactionOutcomes}), so that a reader telling transactions does not read each
     * partition twice.
     */
    public static ArchiveTree open(Path archive, ReaderOptions markers) {
        String n = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        Kind kind = n.endsWith(".zip") ? Kind.ZIP : n.endsWith(".tar") ? Kind.TAR : Kind.TAR_STREAM;
        ArchiveTree tree = new ArchiveTree(archive, kind, markers);
        try {
            tree.list();
        } catch (IOException | RuntimeException e) {
            tree.close();
            if (e instanceof FormatException fe) {
                throw fe;
            }
            throw FormatException.at(Violation.IO_ERROR, archive.toString(), 0)
                    .note("cannot read archive: " + describe(e)).build(e);
        }
        return tree;
    }

    private static String describe(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The archive itself, as a directory. */
    public FileEntry root() {
        return root;
    }

    /**
     * The entry at a path inside the archive ({@code logdir/__consumer_offsets-0}); empty when
     * there is none. An empty path is the root.
     */
    public Optional<FileEntry> find(String inner) {
        Node at = root;
        for (String part : inner.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            at = at.children.get(part);
            if (at == null) {
                return Optional.empty();
            }
        }
        return Optional.of(at);
    }

    /** Where the archive is cut short, when it is. */
    public Optional<Truncation> truncation() {
        return Optional.ofNullable(truncation);
    }

    /**
     * The order in which the archive holds {@code entry} (a file of this tree), for readers that
     * can take files in archive order; for a directory, that of its first file; {@link Long#MAX_VALUE}
     * for empty directories and foreign entries.
     */
    public long position(FileEntry entry) {
        return entry instanceof Node n && n.tree == this ? n.first : Long.MAX_VALUE;
    }

    /** True when entries are read from one forward stream (compressed tars), where order matters. */
    public boolean isStream() {
        return kind == Kind.TAR_STREAM;
    }

    /** How many times the forward stream started over (for tests and measurements). */
    public int restarts() {
        return restarts;
    }

    /**
     * The transaction outcomes of {@code logs} (the {@code .log} files of one partition) from the
     * markers the listing pass read; null when it did not read them all (not asked for, over
     * {@link #MARKER_BUDGET}, not entries of this tree): then the caller pre-scans them itself.
     */
    public TransactionOutcomes transactionOutcomes(List<LogFile> logs) {
        List<TransactionOutcomes.Collector> parts = new ArrayList<>();
        for (LogFile f : logs) {
            if (!(f.file() instanceof Node n) || n.tree != this || n.markers == null) {
                return null;
            }
            parts.add(n.markers);
        }
        return parts.isEmpty() ? null : TransactionOutcomes.Collector.merge(parts);
    }

    private void list() throws IOException {
        switch (kind) {
            case ZIP -> {
                zip = ZipFile.builder().setPath(archive).get();
                int i = 0;
                for (ZipArchiveEntry e : java.util.Collections.list(zip.getEntries())) {
                    add(e, i++);
                }
            }
            case TAR -> {
                try {
                    tar = new TarFile(archive);
                    long fileSize = Files.size(archive);
                    int i = 0;
                    Node last = null;
                    for (TarArchiveEntry e : tar.getEntries()) {
                        Node n = add(e, i++);
                        if (n != null) {
                            n.dataStart = e.getDataOffset();
                            last = n;
                        }
                    }
                    if (last != null && last.dataStart + last.size > fileSize) {
                        truncated(last, fileSize, fileSize, null);
                    }
                } catch (IOException e) {
                    // a plain tar cut short: read it as a stream, which lists every complete entry
                    if (tar != null) {
                        tar.close();
                        tar = null;
                    }
                    root.children.clear();
                    entries.clear();
                    kind = Kind.TAR_STREAM;
                    listStream();
                }
            }
            case TAR_STREAM -> listStream();
        }
        root.sortChildren();
    }

    /** The listing pass of a stream: headers, the small side files, and where a truncated archive ends. */
    private void listStream() throws IOException {
        Counting raw = new Counting(Files.newInputStream(archive));
        Counting data = null;
        Node last = null;
        try (InputStream closing = raw) {
            data = new Counting(decompressor(new BufferedInputStream(raw, 1 << 16)));
            TarArchiveInputStream in = new TarArchiveInputStream(data);
            TarArchiveEntry e;
            int i = 0;
            while ((e = in.getNextEntry()) != null) {
                Node n = add(e, i++);
                if (n == null) {
                    continue;
                }
                n.dataStart = data.count;
                last = n;
                FileKind fk = LogFile.classify(n, Optional.empty()).kind();
                if (n.size <= CACHE_ENTRY_MAX && cached < CACHE_BUDGET && isSideFile(fk)) {
                    boolean index = fk == FileKind.INDEX || fk == FileKind.TIME_INDEX;
                    byte[] bytes = index ? storedPart(in, n.size) : in.readAllBytes();
                    if (cached + bytes.length <= CACHE_BUDGET) {
                        n.bytes = bytes;
                        n.zeroTail = index;
                        cached += bytes.length;
                    }
                } else if (markerOptions != null && fk == FileKind.LOG && markers < MARKER_BUDGET) {
                    readMarkers(n, in);
                }
            }
            if (last != null && last.dataStart + last.size > data.count) {
                truncated(last, raw.count, data.count, null);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof FormatException) {
                throw e;
            }
            long tarBytes = data == null ? 0 : data.count;
            if (entries.isEmpty() && tarBytes == 0) {
                throw e instanceof IOException io ? io : new IOException(e);
            }
            truncated(last, Files.size(archive), tarBytes, e);
        }
    }

    /** Kafka's files read beside a segment or a log dir (indexes, snapshots, checkpoints): what the listing pass keeps. */
    private static boolean isSideFile(FileKind kind) {
        return kind != FileKind.LOG && kind != FileKind.OTHER && kind != FileKind.TMP;
    }

    /** The transaction markers of a {@code .log} entry, read as the listing pass passes it. */
    private void readMarkers(Node n, InputStream in) {
        if (markerWalk == null) {
            markerWalk = new SegmentWalk(markerOptions);
        }
        TransactionOutcomes.Collector c = new TransactionOutcomes.Collector(markerWalk);
        long base = LogFile.classify(n, Optional.empty()).baseOffset();
        try (StreamSource source = new StreamSource(unclosable(in), n.path(), MAX_WINDOW, n.size)) {
            c.add(source, n.size, base);
        }
        markers += c.markerCount();
        n.markers = c;
    }

    private static InputStream unclosable(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public void close() {
                // the shared stream stays open for the next entry
            }
        };
    }

    /**
     * The bytes of an index entry up to its all-zero tail, read in chunks so that a preallocated
     * 10 MiB index costs its entries only; the length kept is rounded up to whole entries (of 8 and
     * of 12 bytes) so that no entry is split by the tail.
     */
    private static byte[] storedPart(InputStream in, long size) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] chunk = new byte[1 << 16];
        long pos = 0;
        long end = 0;
        int n;
        while ((n = in.read(chunk)) > 0) {
            int last = n;
            while (last > 0 && chunk[last - 1] == 0) {
                last--;
            }
            if (last > 0) {
                // zeros between the previous non-zero byte and this chunk are stored as they are
                long gap = pos - end;
                for (long i = 0; i < gap; i++) {
                    out.write(0);
                }
                out.write(chunk, 0, last);
                end = pos + last;
            }
            pos += n;
        }
        long keep = Math.min(size, (end + 23) / 24 * 24);
        byte[] bytes = out.toByteArray();
        return keep == bytes.length ? bytes : Arrays.copyOf(bytes, (int) keep);
    }

    private void truncated(Node last, long archiveBytes, long tarBytes, Exception cause) {
        String why = cause == null ? null : cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        if (last != null && last.dataStart + last.size > tarBytes) {
            // the last entry is partial: never read it as if whole
            last.parent.children.remove(last.name);
            entries.remove(last);
            last.markers = null;
            Node before = entries.isEmpty() ? null : entries.get(entries.size() - 1);
            truncation = new Truncation(archive.toString(), archiveBytes, tarBytes, last.path(),
                    Math.max(0, tarBytes - last.dataStart), last.size, before == null ? null : before.path(), why);
        } else {
            truncation = new Truncation(archive.toString(), archiveBytes, tarBytes, null, 0, 0,
                    last == null ? null : last.path(), why);
        }
    }

    private InputStream decompressor(InputStream raw) throws IOException {
        String n = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".tar")) {
            return raw;
        }
        if (n.endsWith(".bz2") || n.endsWith(".tbz2")) {
            return new BZip2CompressorInputStream(raw, true);
        }
        if (n.endsWith(".zst")) {
            return new ZstdCompressorInputStream(raw);
        }
        return GzipCompressorInputStream.builder().setInputStream(raw).setDecompressConcatenated(true).get();
    }

    private TarArchiveInputStream openStream() throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(archive), 1 << 16);
        return new TarArchiveInputStream(decompressor(raw));
    }

    private Node add(ArchiveEntry e, int index) {
        String name = e.getName();
        while (name.startsWith("./")) {
            name = name.substring(2);
        }
        while (name.startsWith("/")) {
            name = name.substring(1);
        }
        if (name.isEmpty() || (e instanceof TarArchiveEntry t && (t.isSymbolicLink() || t.isLink()))) {
            return null;
        }
        boolean dir = e.isDirectory();
        String[] parts = name.split("/");
        Node at = root;
        Node added = null;
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty() || parts[i].equals(".")) {
                continue;
            }
            boolean last = i == parts.length - 1;
            Node child = at.children.get(parts[i]);
            if (child == null) {
                boolean isDir = !last || dir;
                child = new Node(this, at, parts[i], null,
                        isDir, isDir ? 0 : e.getSize(), isDir ? -1 : index, e);
                at.children.put(parts[i], child);
                if (!isDir) {
                    entries.add(child);
                    added = child;
                }
            }
            at = child;
        }
        return added;
    }

    private InputStream inputStream(Node node) throws IOException {
        switch (kind) {
            case ZIP:
                return zip.getInputStream((ZipArchiveEntry) node.entry);
            case TAR:
                return tar.getInputStream((TarArchiveEntry) node.entry);
            default:
                if (stream == null || node.index <= streamIndex) {
                    if (stream != null) {
                        stream.close();
                        restarts++;
                    }
                    stream = openStream();
                    streamIndex = -1;
                }
                TarArchiveEntry e;
                while ((e = stream.getNextEntry()) != null) {
                    streamIndex++;
                    if (streamIndex == node.index) {
                        return new FilterInputStream(stream) {
                            @Override
                            public void close() {
                                // the shared stream stays open for the next entry
                            }
                        };
                    }
                    keepSkipped(streamIndex, e, node.parent);
                }
                throw new IOException("entry " + node.path() + " not found on a second pass");
        }
    }

    /**
     * Keeps a small entry passed on the way to a later one of the same directory: the segments of
     * a partition stored out of base-offset order are asked for in that order. Entries of other
     * directories are not kept: directories are read in archive order, so those are either behind
     * (done with) or reached later by the stream anyway.
     */
    private void keepSkipped(int index, TarArchiveEntry e, Node dir) throws IOException {
        if (e.isDirectory() || e.getSize() > SKIP_CACHE_ENTRY_MAX) {
            return;
        }
        Node n = byIndex(index);
        if (n == null || n.bytes != null || n.parent != dir) {
            return;
        }
        byte[] bytes = stream.readAllBytes();
        skipCache.put(index, bytes);
        skipCached += bytes.length;
        var it = skipCache.entrySet().iterator();
        while (skipCached > SKIP_CACHE_BUDGET && it.hasNext()) {
            skipCached -= it.next().getValue().length;
            it.remove();
        }
    }

    private Node byIndex(int index) {
        // entries are added in index order, with gaps for directories and links
        int lo = 0;
        int hi = entries.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int at = entries.get(mid).index;
            if (at == index) {
                return entries.get(mid);
            } else if (at < index) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return null;
    }

    /** The cached bytes of an entry (an index's up to its zero tail); null when not cached. */
    private ByteBuffer cachedBytes(Node node) {
        byte[] bytes = node.bytes;
        if (bytes == null) {
            bytes = skipCache.remove(node.index);
            if (bytes == null) {
                return null;
            }
            skipCached -= bytes.length;
        }
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public void close() {
        for (Closeable c : new Closeable[]{zip, tar, stream}) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // read-only resources: nothing is lost
                }
            }
        }
    }

    /** Counts the bytes read through it. */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += Math.max(0, s);
            return s;
        }
    }

    /** One entry of the archive. */
    private static final class Node implements FileEntry {
        private final ArchiveTree tree;
        private final Node parent;
        private final String name;
        /**
         * The root's path (the archive's), a file's once asked for (as long as the entry's name in
         * the archive); null for directories below the root, whose {@link #path()} is built from the
         * names each time.
         */
        private String path;
        private final boolean directory;
        private final long size;
        private final int index;
        private final ArchiveEntry entry;
        private final Map<String, Node> children = new LinkedHashMap<>();
        private List<FileEntry> sorted = List.of();
        /** The archive index of this file, or of the first file below this directory. */
        private long first = Long.MAX_VALUE;
        /** Position of the entry's data in the tar stream (streams only). */
        private long dataStart;
        /** The entry's bytes when the listing pass kept them (an index's up to its zero tail). */
        private byte[] bytes;
        /** True when {@link #bytes} stop where the index's all-zero tail starts. */
        private boolean zeroTail;
        /** The transaction markers of a {@code .log}, when the listing pass read them. */
        private TransactionOutcomes.Collector markers;

        Node(ArchiveTree tree, Node parent, String name, String path, boolean directory, long size, int index,
             ArchiveEntry entry) {
            this.tree = tree;
            this.parent = parent;
            this.name = name;
            this.path = path;
            this.directory = directory;
            this.size = size;
            this.index = index;
            this.entry = entry;
        }

        /**
         * Sorts the children of every directory below this one and sets {@link #first}, without
         * recursion: an archive's names may nest tens of thousands of levels deep.
         */
        void sortChildren() {
            List<Node> order = new ArrayList<>();
            java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>();
            todo.push(this);
            while (!todo.isEmpty()) {
                Node at = todo.pop();
                order.add(at);
                List<Node> list = new ArrayList<>(at.children.values());
                list.sort(Comparator.comparing(n -> n.name));
                at.sorted = List.copyOf(list);
                list.forEach(todo::push);
            }
            // children before their parents: each directory's first file is its children's least
            for (int i = order.size() - 1; i >= 0; i--) {
                Node at = order.get(i);
                at.first = at.index >= 0 ? at.index : Long.MAX_VALUE;
                for (FileEntry c : at.sorted) {
                    at.first = Math.min(at.first, ((Node) c).first);
                }
            }
        }

        @Override public String name() { return name; }
        /**
         * The archive's path, {@link ArchiveTree#SEPARATOR}, and the names down to this entry. Kept for
         * files only: kept for every directory, the paths of a chain of directories grow with the
         * square of its depth (tens of thousands of levels in a small archive filled the heap).
         */
        @Override
        public String path() {
            if (path != null) {
                return path;
            }
            java.util.ArrayDeque<String> names = new java.util.ArrayDeque<>();
            Node at = this;
            for (; at.parent != null; at = at.parent) {
                names.push(at.name);
            }
            String p = at.path + SEPARATOR + String.join("/", names);
            if (!directory) {
                path = p;
            }
            return p;
        }
        @Override public boolean isDirectory() { return directory; }
        @Override public long size() { return size; }
        @Override public List<FileEntry> children() { return sorted; }
        @Override public FileEntry parent() { return parent; }

        @Override
        public ByteSource open() {
            if (directory) {
                throw FormatException.at(Violation.IO_ERROR, path(), 0).note("is a directory").build();
            }
            ByteBuffer cached = tree.cachedBytes(this);
            if (cached != null) {
                return zeroTail && cached.limit() < size ? ByteSource.withZeroTail(cached, size, path())
                        : ByteSource.wrap(cached, path());
            }
            try {
                return new StreamSource(tree.inputStream(this), path(), MAX_WINDOW, size >= 0 ? size : -1);
            } catch (IOException e) {
                throw FormatException.at(Violation.IO_ERROR, path(), 0).note(describe(e)).build(e);
            }
        }

        @Override
        public String toString() {
            return path();
        }
    }
}
