package io.segscope.format.zookeeper;

import java.util.ArrayList;
import java.util.List;

/**
 * One logged transaction: the {@code TxnHeader} (session, cxid, zxid, the leader's time, type)
 * and its body, with the file and byte position of its entry (docs/format.md 5.5).
 *
 * @param body one of the nested records, or null for a body-less {@code closeSession}
 */
public record ZkTxn(long clientId, int cxid, long zxid, long time, int type, Body body, String file, long position) {
    public static final int CREATE = 1;
    public static final int DELETE = 2;
    public static final int SET_DATA = 5;
    public static final int SET_ACL = 7;
    public static final int CHECK = 13;
    public static final int MULTI = 14;
    public static final int CREATE2 = 15;
    public static final int RECONFIG = 16;
    public static final int CREATE_CONTAINER = 19;
    public static final int DELETE_CONTAINER = 20;
    public static final int CREATE_TTL = 21;
    public static final int CREATE_SESSION = -10;
    public static final int CLOSE_SESSION = -11;
    public static final int ERROR = -1;

    /** A transaction body. */
    public sealed interface Body permits Create, Delete, SetData, SetAcl, Check, Multi, CreateSession, CloseSession, Error {
    }

    /** create, create2, createContainer, createTTL; {@code parentCVersion} -1 for an old CreateTxnV0. */
    public record Create(String path, byte[] data, List<ZkAcl> acl, boolean ephemeral, int parentCVersion, long ttl) implements Body {
    }

    public record Delete(String path) implements Body {
    }

    /** setData and reconfig; {@code version} is the new version. */
    public record SetData(String path, byte[] data, int version) implements Body {
    }

    public record SetAcl(String path, List<ZkAcl> acl, int version) implements Body {
    }

    public record Check(String path, int version) implements Body {
    }

    /** A multi: its sub-transactions as logged, read when applied (ZooKeeper reads them so). */
    public record Multi(List<Sub> txns) implements Body {
    }

    public record Sub(int type, byte[] data) {
    }

    public record CreateSession(int timeout) implements Body {
    }

    /** closeSession with its paths to delete (3.6+). */
    public record CloseSession(List<String> paths) implements Body {
    }

    public record Error(int err) implements Body {
    }

    /** ZooKeeper's name of an op code. */
    public static String typeName(int type) {
        return switch (type) {
            case CREATE -> "create";
            case DELETE -> "delete";
            case SET_DATA -> "setData";
            case SET_ACL -> "setACL";
            case CHECK -> "check";
            case MULTI -> "multi";
            case CREATE2 -> "create2";
            case RECONFIG -> "reconfig";
            case CREATE_CONTAINER -> "createContainer";
            case DELETE_CONTAINER -> "deleteContainer";
            case CREATE_TTL -> "createTTL";
            case CREATE_SESSION -> "createSession";
            case CLOSE_SESSION -> "closeSession";
            case ERROR -> "error";
            default -> "type " + type;
        };
    }

    /** Thrown for a type ZooKeeper does not log (top level) or does not take inside a multi. */
    static final class UnknownType extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownType(int type) {
            super("Unsupported Txn with type=" + type);
        }
    }

    /**
     * Reads a logged body as {@code SerializeUtils.deserializeTxn} does: a create cut short is
     * re-read as a CreateTxnV0; a closeSession cut short (or empty) has no body.
     */
    static Body readTop(int type, byte[] payload, int offset, String file, long position, int max) {
        if (type == CHECK) {
            throw new UnknownType(type);
        }
        JuteInput in = JuteInput.of(payload, offset, payload.length - offset, file, position);
        try {
            return read(type, in, max, false);
        } catch (JuteInput.JuteException e) {
            if (e.reason() != JuteInput.JuteException.Reason.END) {
                throw e;
            }
            if (type == CREATE) {
                JuteInput v0 = JuteInput.of(payload, offset, payload.length - offset, file, position);
                return new Create(v0.readString(max), v0.readBuffer(max), ZkAcl.read(v0, max), v0.readBool(), -1, 0);
            }
            if (type == CLOSE_SESSION) {
                return null;
            }
            throw e;
        }
    }

    /** Reads a multi's sub-record as {@code DataTree.processTxn} does. */
    static Body readSub(Sub sub, String file, long position, int max) {
        switch (sub.type()) {
            case ERROR, CREATE, CREATE2, DELETE, DELETE_CONTAINER, SET_DATA, CHECK, CREATE_CONTAINER, CREATE_TTL -> {
            }
            default -> throw new UnknownType(sub.type());
        }
        if (sub.data() == null) {
            throw new JuteInput.JuteException(JuteInput.JuteException.Reason.LENGTH, position, file, "null sub-transaction data");
        }
        return read(sub.type(), JuteInput.of(sub.data(), 0, sub.data().length, file, position), max, true);
    }

    private static Body read(int type, JuteInput in, int max, boolean sub) {
        return switch (type) {
            case CREATE, CREATE2 -> new Create(in.readString(max), in.readBuffer(max), ZkAcl.read(in, max), in.readBool(), in.readInt(), 0);
            case CREATE_CONTAINER -> new Create(in.readString(max), in.readBuffer(max), ZkAcl.read(in, max), false, in.readInt(), 0);
            case CREATE_TTL -> {
                String p = in.readString(max);
                byte[] d = in.readBuffer(max);
                List<ZkAcl> a = ZkAcl.read(in, max);
                int pcv = in.readInt();
                yield new Create(p, d, a, false, pcv, in.readLong());
            }
            case DELETE, DELETE_CONTAINER -> new Delete(in.readString(max));
            case SET_DATA, RECONFIG -> new SetData(in.readString(max), in.readBuffer(max), in.readInt());
            case SET_ACL -> new SetAcl(in.readString(max), ZkAcl.read(in, max), in.readInt());
            case CHECK -> new Check(in.readString(max), in.readInt());
            case ERROR -> new Error(in.readInt());
            case CREATE_SESSION -> new CreateSession(in.readInt());
            case CLOSE_SESSION -> {
                int n = in.readInt();
                List<String> paths = null;
                if (n >= 0) {
                    paths = new ArrayList<>(Math.min(n, 64));
                    for (int i = 0; i < n; i++) {
                        paths.add(in.readString(max));
                    }
                }
                yield new CloseSession(paths);
            }
            case MULTI -> {
                int n = in.readInt();
                if (n < 0) {
                    throw new JuteInput.JuteException(JuteInput.JuteException.Reason.LENGTH, in.position() - 4, in.name(), "null multi");
                }
                List<Sub> subs = new ArrayList<>(Math.min(n, 64));
                for (int i = 0; i < n; i++) {
                    int t = in.readInt();
                    subs.add(new Sub(t, in.readBuffer(max)));
                }
                yield new Multi(subs);
            }
            default -> throw new UnknownType(type);
        };
    }
}
