package io.segscope.format.zookeeper;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import org.xerial.snappy.SnappyCodec;
import org.xerial.snappy.SnappyInputStream;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A ZooKeeper snapshot file (docs/format.md 5.4), plain, {@code .gz} or {@code .snappy} (the mode
 * comes from the file name's suffix, as {@code SnapStream} chooses it), streamed one node at a
 * time into a {@link ZkTree}. Seal 1 (the Adler32 of every uncompressed byte before it) is always
 * checked. What follows it is told by its length: 0 bytes nothing, 21 the last processed zxid
 * (3.9), 33 the digest block (3.6+), 54 both; each block's seal is checked.
 */
public final class ZkSnapshot {
    static final int MAGIC = 0x5A4B534E;
    /** Lengths read from a snapshot above this are damage (ZooKeeper's default limit is 2 MiB). */
    static final int MAX_LENGTH = 64 * 1024 * 1024;

    /** What a snapshot held besides its nodes. */
    public record Info(String file, long nameZxid, String compression, int sessions, int nodes, int acls,
                       long digestZxid, long lastZxid, long maxNodeZxid, long maxNodeTime, long bytes) {
    }

    private ZkSnapshot() {
    }

    /** The zxid of a {@code snapshot.<hex>[.ext]} or {@code log.<hex>} name, as {@code Util.getZxidFromName}; -1 if none. */
    public static long zxidFromName(String name, String prefix) {
        String[] parts = name.split("\\.");
        if (parts.length >= 2 && parts[0].equals(prefix)) {
            try {
                return Long.parseLong(parts[1], 16);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }

    static String compression(String name) {
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1);
        return switch (ext) {
            case "gz" -> "gz";
            case "snappy" -> "snappy";
            default -> "none";
        };
    }

    /**
     * ZooKeeper's {@code SnapStream.isValidSnapshot}: a plain file of at least 10 bytes ending with
     * int 1 and '/'; a gz or snappy file starting with its magic.
     *
     * @return null when valid, else why not
     */
    public static String invalidReason(FileEntry file) {
        String mode = compression(file.name());
        try (ByteSource src = file.open()) {
            long size = src.size() >= 0 ? src.size() : file.size();
            switch (mode) {
                case "gz": {
                    if (src.available(0, 2) < 2) {
                        return "shorter than the gzip magic";
                    }
                    int at = src.ensure(0, 2);
                    return (src.buffer().get(at) & 0xff) == 0x1f && (src.buffer().get(at + 1) & 0xff) == 0x8b
                            ? null : "no gzip magic";
                }
                case "snappy": {
                    byte[] magic = SnappyCodec.getMagicHeader();
                    if (src.available(0, magic.length) < magic.length) {
                        return "shorter than the snappy magic";
                    }
                    int at = src.ensure(0, magic.length);
                    for (int i = 0; i < magic.length; i++) {
                        if (src.buffer().get(at + i) != magic[i]) {
                            return "no snappy magic";
                        }
                    }
                    return null;
                }
                default: {
                    if (file.isStream() || !src.isRandomAccess()) {
                        return null;
                    }
                    if (size < 10) {
                        return "shorter than 10 bytes";
                    }
                    int at = src.ensure(size - 5, 5);
                    if (at < 0) {
                        return "cannot read its end";
                    }
                    boolean ok = src.buffer().getInt(at) == 1 && src.buffer().get(at + 4) == '/';
                    return ok ? null : "does not end with the seal's \"/\"";
                }
            }
        }
    }

    /**
     * Reads a snapshot into a new tree ({@code FileSnap.deserialize}); the tree's last processed
     * zxid is the file name's.
     *
     * @throws FormatException {@code zk-header}, {@code zk-truncated}, {@code zk-checksum},
     *     {@code zk-invalid-record} or {@code zk-invalid-tree}, naming the file and the byte
     *     position (of the uncompressed stream for a compressed file)
     */
    public static ZkTree read(FileEntry file, ZkPathFilter filter, boolean checksums, Info[] info) {
        return read(file, filter, checksums, info, new java.util.ArrayList<>());
    }

    /**
     * As {@link #read(FileEntry, ZkPathFilter, boolean, Info[])}; with {@code checksums} false, each seal
     * whose Adler32 fails is added to {@code ignored} ({@code zk-checksum}, a warning to print).
     */
    public static ZkTree read(FileEntry file, ZkPathFilter filter, boolean checksums, Info[] info,
                              java.util.List<io.segscope.format.error.Problem> ignored) {
        java.util.List<io.segscope.format.error.Problem> seals = checksums ? null : ignored;
        String name = file.path();
        String mode = compression(file.name());
        long nameZxid = zxidFromName(file.name(), "snapshot");
        InputStream raw = new SourceInputStream(file.open());
        JuteInput in = null;
        try (InputStream stream = decompress(raw, mode)) {
            in = JuteInput.of(stream, name, true);
            int[] counts = new int[2];
            ZkTree tree = readTree(in, name, filter, seals, mode, counts);
            tree.lastProcessedZxid = nameZxid;
            long[] trailer = trailer(in, name, seals, mode);
            if (info != null) {
                info[0] = new Info(name, nameZxid, mode, tree.sessions.size(), counts[0], counts[1], trailer[0], trailer[1],
                        tree.snapshotMaxZxid, tree.snapshotMaxTime, in.position());
            }
            return tree;
        } catch (JuteInput.JuteException e) {
            Violation v = e.reason() == JuteInput.JuteException.Reason.END ? Violation.ZK_TRUNCATED : Violation.ZK_INVALID_RECORD;
            throw FormatException.at(v, name, e.position()).note(e.detail() + where(mode)).build();
        } catch (UncheckedIOException e) {
            long at = in == null ? 0 : in.position();
            Violation v = e.getCause() instanceof EOFException ? Violation.ZK_TRUNCATED : Violation.ZK_INVALID_RECORD;
            throw FormatException.at(v, name, at).note(mode + " stream: " + e.getCause().getMessage() + where(mode)).build();
        } catch (IOException e) {
            Violation v = e instanceof EOFException ? Violation.ZK_TRUNCATED : Violation.ZK_INVALID_RECORD;
            throw FormatException.at(v, name, in == null ? 0 : in.position())
                    .note(mode + " stream: " + e.getMessage() + where(mode)).build();
        }
    }

    private static String where(String mode) {
        return mode.equals("none") ? "" : " (position in the uncompressed " + mode + " stream)";
    }

    private static InputStream decompress(InputStream raw, String mode) throws IOException {
        try {
            return switch (mode) {
                case "gz" -> new GZIPInputStream(raw, 64 * 1024);
                case "snappy" -> new SnappyInputStream(raw);
                default -> raw;
            };
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    private static ZkTree readTree(JuteInput in, String name, ZkPathFilter filter, java.util.List<io.segscope.format.error.Problem> seals, String mode, int[] counts) {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw FormatException.at(Violation.ZK_HEADER, name, 0).field("magic").expected("0x5a4b534e (ZKSN)")
                    .actual(String.format("0x%08x", magic)).note("not a ZooKeeper snapshot" + where(mode)).build();
        }
        in.readInt();
        in.readLong();
        ZkTree tree = new ZkTree(filter);
        int sessions = in.readInt();
        for (int i = 0; i < sessions; i++) {
            long id = in.readLong();
            tree.sessions.put(id, in.readInt());
        }
        Map<Long, List<ZkAcl>> acls = new HashMap<>();
        int aclEntries = in.readInt();
        for (int i = 0; i < aclEntries; i++) {
            long at = in.position();
            long id = in.readLong();
            List<ZkAcl> list = ZkAcl.read(in, MAX_LENGTH);
            if (list == null) {
                throw FormatException.at(Violation.ZK_INVALID_TREE, name, at)
                        .note("ACL " + id + " has no ACL vector (ZooKeeper: missing acls)" + where(mode)).build();
            }
            acls.put(id, list);
        }
        counts[1] = acls.size();
        int n = 0;
        long maxZxid = 0;
        long maxTime = 0;
        while (true) {
            long at = in.position();
            String path = in.readString(MAX_LENGTH);
            if ("/".equals(path)) {
                break;
            }
            if (path == null) {
                throw FormatException.at(Violation.ZK_INVALID_TREE, name, at).note("null node path" + where(mode)).build();
            }
            String key;
            String parentKey = null;
            String child = null;
            if (path.isEmpty()) {
                key = "/";
            } else {
                int slash = path.lastIndexOf('/');
                if (slash != 0 && (slash < 0 || path.endsWith("/"))) {
                    throw FormatException.at(Violation.ZK_INVALID_TREE, name, at)
                            .note("node path " + quote(path) + " is not absolute" + where(mode)).build();
                }
                key = path;
                parentKey = slash == 0 ? "/" : path.substring(0, slash);
                child = path.substring(slash + 1);
            }
            boolean keep = filter.keeps(key);
            byte[] data = keep ? in.readBuffer(MAX_LENGTH) : skipBuffer(in);
            long aclId = in.readLong();
            long czxid = in.readLong();
            long mzxid = in.readLong();
            long ctime = in.readLong();
            long mtime = in.readLong();
            int version = in.readInt();
            int cversion = in.readInt();
            int aversion = in.readInt();
            long owner = in.readLong();
            long pzxid = in.readLong();
            n++;
            maxZxid = Math.max(maxZxid, Math.max(czxid, Math.max(mzxid, pzxid)));
            maxTime = Math.max(maxTime, Math.max(ctime, mtime));
            ZkNode parent = parentKey == null ? null : tree.nodes.get(parentKey);
            if (parentKey != null && parent == null && filter.keeps(parentKey)) {
                throw FormatException.at(Violation.ZK_INVALID_TREE, name, at)
                        .note("Invalid Datatree, unable to find parent " + parentKey + " of path " + path + where(mode)).build();
            }
            if (parent != null) {
                parent.children.add(child);
                if (ZkNode.sessionOwned(owner)) {
                    tree.ephemerals.computeIfAbsent(owner, k -> new java.util.HashSet<>()).add(key);
                    if (!keep) {
                        tree.shadowOwners.put(key, owner);
                    }
                }
            }
            if (keep) {
                List<ZkAcl> acl = aclId == -1 ? ZkAcl.OPEN : acls.get(aclId);
                ZkNode node = new ZkNode(data, acl);
                node.czxid = czxid;
                node.mzxid = mzxid;
                node.ctime = ctime;
                node.mtime = mtime;
                node.version = version;
                node.cversion = cversion;
                node.aversion = aversion;
                node.ephemeralOwner = owner;
                node.pzxid = pzxid;
                ZkNode old = tree.nodes.put(key, node);
                if (old != null) {
                    node.children.addAll(old.children);
                }
            }
        }
        if (!tree.nodes.containsKey("/")) {
            throw FormatException.at(Violation.ZK_INVALID_TREE, name, in.position()).note("no root node" + where(mode)).build();
        }
        counts[0] = n;
        tree.snapshotMaxZxid = maxZxid;
        tree.snapshotMaxTime = maxTime;
        seal(in, name, seals, mode, 1);
        return tree;
    }

    /** A buffer's bytes skipped, not held (a node the filter drops); returns null. */
    private static byte[] skipBuffer(JuteInput in) {
        long at = in.position();
        int len = in.readInt();
        if (len < -1 || len > MAX_LENGTH) {
            throw new JuteInput.JuteException(JuteInput.JuteException.Reason.LENGTH, at, in.name(), "Unreasonable length = " + len);
        }
        if (len > 0) {
            in.skip(len);
        }
        return null;
    }

    /** Checks a seal: a mismatch throws, or with {@code seals} (--no-checksums) is added to it and the snapshot used. */
    private static void seal(JuteInput in, String name, java.util.List<io.segscope.format.error.Problem> seals, String mode, int which) {
        long computed = in.checksum();
        long at = in.position();
        long stored = in.readLong();
        in.readString(MAX_LENGTH);
        if (stored != computed) {
            FormatException e = FormatException.at(Violation.ZK_CHECKSUM, name, at).field("seal " + which)
                    .expected(String.format("0x%08x", computed)).actual(String.format("0x%08x", stored))
                    .note("Adler32 of the bytes before it" + where(mode)
                            + (seals == null ? "" : ": the snapshot is used anyway (--no-checksums)")).build();
            if (seals == null) {
                throw e;
            }
            seals.add(e.problem());
        }
    }

    /** Reads what follows seal 1; returns {digest zxid or -1, last processed zxid or -1}. */
    private static long[] trailer(JuteInput in, String name, java.util.List<io.segscope.format.error.Problem> seals, String mode) {
        long[] out = {-1, -1};
        int left = in.available(1024);
        if (left == 0) {
            return out;
        }
        if (left == 21) {
            out[1] = in.readLong();
            seal(in, name, seals, mode, 2);
            return out;
        }
        long at = in.position();
        out[0] = in.readLong();
        int version = in.readInt();
        if (version < 2) {
            in.readString(MAX_LENGTH);
        } else {
            in.readLong();
        }
        seal(in, name, seals, mode, 2);
        left = in.available(1024);
        if (left == 21) {
            out[1] = in.readLong();
            seal(in, name, seals, mode, 3);
        } else if (left != 0) {
            throw FormatException.at(Violation.ZK_INVALID_RECORD, name, in.position())
                    .note(left + (left == 1024 ? " or more" : "") + " bytes after the digest block started at " + at
                            + ", expected none or a last-zxid block of 21" + where(mode)).build();
        }
        return out;
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
