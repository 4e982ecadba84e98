package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.StreamSource;
import io.segscope.format.logdir.FileEntry;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An archive of a log dir (or of a partition dir, or of several log dirs) seen as a tree of
 * {@link FileEntry}s, read in place with commons-compress: nothing is extracted to disk.
 *
 * <p>{@code .zip} and plain {@code .tar} are random access: any entry opens directly.
 * Compressed tars ({@code .tar.gz}/{@code .tgz}, {@code .tar.bz2}, {@code .tar.zst}) are one
 * stream: opening an entry reads forward from the last one opened and starts over only when asked
 * for an earlier entry, so reading entries in archive order costs one pass.
 */
public final class ArchiveTree implements Closeable {
    /** The largest batch read from an archive entry at once (a hostile size cannot cost more). */
    public static final int MAX_WINDOW = 256 * 1024 * 1024;

    private enum Kind { ZIP, TAR, TAR_STREAM }

    private final Path archive;
    private final Kind kind;
    private final Node root;
    private ZipFile zip;
    private TarFile tar;
    private TarArchiveInputStream stream;
    private int streamIndex = -1;

    private ArchiveTree(Path archive, Kind kind) {
        this.archive = archive;
        this.kind = kind;
        this.root = new Node(this, archive.getFileName().toString(), archive.toString(), true, 0, -1, null);
    }

    /** True for the archive names segscope reads. */
    public static boolean isArchive(Path path) {
        String n = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".zip") || n.endsWith(".tar") || n.endsWith(".tar.gz") || n.endsWith(".tgz")
                || n.endsWith(".tar.bz2") || n.endsWith(".tbz2") || n.endsWith(".tar.zst");
    }

    /** Lists the archive; its entries are opened lazily. Close the tree when done. */
    public static ArchiveTree open(Path archive) {
        String n = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        Kind kind = n.endsWith(".zip") ? Kind.ZIP : n.endsWith(".tar") ? Kind.TAR : Kind.TAR_STREAM;
        ArchiveTree tree = new ArchiveTree(archive, kind);
        try {
            tree.list();
        } catch (IOException | RuntimeException e) {
            tree.close();
            if (e instanceof FormatException fe) {
                throw fe;
            }
            throw FormatException.at(Violation.IO_ERROR, archive.toString(), 0)
                    .note("cannot read archive: " + e.getMessage()).build(e);
        }
        return tree;
    }

    /** The archive itself, as a directory. */
    public FileEntry root() {
        return root;
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
                tar = new TarFile(archive);
                int i = 0;
                for (TarArchiveEntry e : tar.getEntries()) {
                    add(e, i++);
                }
            }
            case TAR_STREAM -> {
                try (TarArchiveInputStream in = openStream()) {
                    int i = 0;
                    TarArchiveEntry e;
                    while ((e = in.getNextEntry()) != null) {
                        add(e, i++);
                    }
                }
            }
        }
        root.sortChildren();
    }

    private TarArchiveInputStream openStream() throws IOException {
        String n = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        InputStream raw = new BufferedInputStream(Files.newInputStream(archive), 1 << 16);
        InputStream decompressed;
        if (n.endsWith(".bz2") || n.endsWith(".tbz2")) {
            decompressed = new BZip2CompressorInputStream(raw, true);
        } else if (n.endsWith(".zst")) {
            decompressed = new ZstdCompressorInputStream(raw);
        } else {
            decompressed = GzipCompressorInputStream.builder().setInputStream(raw).setDecompressConcatenated(true).get();
        }
        return new TarArchiveInputStream(decompressed);
    }

    private void add(ArchiveEntry e, int index) {
        String name = e.getName();
        while (name.startsWith("./")) {
            name = name.substring(2);
        }
        while (name.startsWith("/")) {
            name = name.substring(1);
        }
        if (name.isEmpty() || (e instanceof TarArchiveEntry t && (t.isSymbolicLink() || t.isLink()))) {
            return;
        }
        boolean dir = e.isDirectory();
        String[] parts = name.split("/");
        Node at = root;
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty() || parts[i].equals(".")) {
                continue;
            }
            boolean last = i == parts.length - 1;
            Node child = at.children.get(parts[i]);
            if (child == null) {
                boolean isDir = !last || dir;
                child = new Node(this, parts[i], at == root ? at.path + "!/" + parts[i] : at.path + "/" + parts[i],
                        isDir, isDir ? 0 : e.getSize(), isDir ? -1 : index, e);
                at.children.put(parts[i], child);
            }
            at = child;
        }
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
                }
                throw new IOException("entry " + node.path + " not found on a second pass");
        }
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

    /** One entry of the archive. */
    private static final class Node implements FileEntry {
        private final ArchiveTree tree;
        private final String name;
        private final String path;
        private final boolean directory;
        private final long size;
        private final int index;
        private final ArchiveEntry entry;
        private final Map<String, Node> children = new LinkedHashMap<>();
        private List<FileEntry> sorted = List.of();

        Node(ArchiveTree tree, String name, String path, boolean directory, long size, int index, ArchiveEntry entry) {
            this.tree = tree;
            this.name = name;
            this.path = path;
            this.directory = directory;
            this.size = size;
            this.index = index;
            this.entry = entry;
        }

        void sortChildren() {
            List<Node> list = new ArrayList<>(children.values());
            list.sort(Comparator.comparing(n -> n.name));
            sorted = List.copyOf(list);
            for (Node n : list) {
                n.sortChildren();
            }
        }

        @Override public String name() { return name; }
        @Override public String path() { return path; }
        @Override public boolean isDirectory() { return directory; }
        @Override public long size() { return size; }
        @Override public List<FileEntry> children() { return sorted; }

        @Override
        public ByteSource open() {
            if (directory) {
                throw FormatException.at(Violation.IO_ERROR, path, 0).note("is a directory").build();
            }
            try {
                return new StreamSource(tree.inputStream(this), path, MAX_WINDOW, size >= 0 ? size : -1);
            } catch (IOException e) {
                throw FormatException.at(Violation.IO_ERROR, path, 0).note(String.valueOf(e.getMessage())).build(e);
            }
        }

        @Override
        public String toString() {
            return path;
        }
    }
}
