package io.segscope.format.zookeeper;

import io.segscope.testdata.Corpus;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** The runs of testdata/corpus-zookeeper and their JSON files. */
final class ZkCorpusRuns {
    private ZkCorpusRuns() {
    }

    static Path dir() {
        return Corpus.root().resolve("testdata/corpus-zookeeper");
    }

    static List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json(String run, String file) throws IOException {
        Object o = ZkJson.parse(Files.readString(dir().resolve(run).resolve(file), StandardCharsets.UTF_8));
        if (o == null) {
            throw new IOException("cannot parse " + run + "/" + file);
        }
        return (Map<String, Object>) o;
    }

    /** A data object of the corpus JSON: null, or its base64 bytes. */
    @SuppressWarnings("unchecked")
    static byte[] data(Object o) {
        return o == null ? null : Base64.getDecoder().decode((String) ((Map<String, Object>) o).get("base64"));
    }

    static long num(Object o) {
        return ((Number) o).longValue();
    }

    /**
     * The run's data dirs as files: the run dir itself, or for an archived run its
     * {@code data.tar.gz} unpacked into {@code scratch} (zeros left as holes).
     */
    static Path materialise(String run, Path scratch) throws IOException {
        Path runDir = dir().resolve(run);
        Path archive = runDir.resolve("data.tar.gz");
        if (!Files.exists(archive)) {
            return runDir;
        }
        Path out = scratch.resolve(run);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archive), 65536)) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512) {
                String name = cstring(header, 0, 100);
                if (name.isEmpty()) {
                    break;
                }
                String prefix = cstring(header, 345, 155);
                if (!prefix.isEmpty()) {
                    name = prefix + "/" + name;
                }
                long size = Long.parseLong(cstring(header, 124, 12).trim(), 8);
                byte type = header[156];
                Path target = out.resolve(name).normalize();
                if (!target.startsWith(out)) {
                    throw new IOException("entry outside: " + name);
                }
                if (type == '5') {
                    Files.createDirectories(target);
                } else if (type == '0' || type == 0) {
                    Files.createDirectories(target.getParent());
                    try (RandomAccessFile f = new RandomAccessFile(target.toFile(), "rw")) {
                        byte[] buf = new byte[65536];
                        long left = size;
                        long pos = 0;
                        while (left > 0) {
                            int n = in.readNBytes(buf, 0, (int) Math.min(buf.length, left));
                            if (n <= 0) {
                                throw new IOException("cut archive");
                            }
                            boolean zero = true;
                            for (int i = 0; i < n && zero; i++) {
                                zero = buf[i] == 0;
                            }
                            if (!zero) {
                                f.seek(pos);
                                f.write(buf, 0, n);
                            }
                            pos += n;
                            left -= n;
                        }
                        f.setLength(size);
                    }
                } else {
                    in.skipNBytes(size);
                }
                long pad = (512 - size % 512) % 512;
                in.skipNBytes(pad);
            }
        }
        return out;
    }

    private static String cstring(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.UTF_8);
    }

    /** Copies a dir (ZooKeeper's restore may delete an empty tail log in what it reads). */
    static Path copy(Path from, Path to) throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(from)) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            Path t = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(t);
            } else if (p.getFileName().toString().startsWith("snapshot.") || p.getFileName().toString().startsWith("log.")) {
                Files.copy(p, t);
            }
        }
        return to;
    }
}
