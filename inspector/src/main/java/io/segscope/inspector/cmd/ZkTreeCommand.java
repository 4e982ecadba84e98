package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.zookeeper.ZkAcl;
import io.segscope.format.zookeeper.ZkKafka;
import io.segscope.format.zookeeper.ZkNode;
import io.segscope.format.zookeeper.ZkPathFilter;
import io.segscope.format.zookeeper.ZkTree;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code segscope zk-tree}: a subtree of a ZooKeeper data dir as a restore leaves it (or as of a
 * zxid or time), or with {@code --kafka} what Kafka kept there.
 */
@Command(name = "zk-tree", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the znodes of a ZooKeeper data dir, offline.",
            "The data dir is restored as ZooKeeper 3.9.5 restores it; only the subtree asked",
            "for (and its ancestors) is held in memory. --kafka prints what Kafka kept there:",
            "brokers, the controller, topics, pending deletions and old consumers' groups.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:damage found (on stderr)", "2:usage error", "3:I/O error"})
public final class ZkTreeCommand implements Callable<Integer> {
    enum Format { text, jsonl }

    @Parameters(arity = "1..*", paramLabel = "ZK_DATA_DIR", description = "ZooKeeper data dir, or an archive of one.")
    List<Path> paths;

    @Option(names = "--path", paramLabel = "ZNODE", defaultValue = "/", description = "The subtree to print (default /).")
    String path;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or jsonl (one line per znode).")
    Format format;

    @Option(names = "--kafka", description = "Print Kafka's cluster and old consumers' state instead of znodes.")
    boolean kafka;

    @Option(names = "--max-data", paramLabel = "N", defaultValue = "200",
            description = "Print at most N bytes of each znode's data (default 200; jsonl says when data was cut).")
    int maxData;

    @CommandLine.Mixin
    ZkSource source;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (maxData < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-data must be 0 or more, not " + maxData);
        }
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        if (!p.startsWith("/") || p.contains("//")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--path takes an absolute znode path, not '" + path + "'");
        }
        ZkPathFilter filter = kafka ? ZkKafka.PATHS : ZkPathFilter.subtrees(List.of(p));
        ZkSource.Restored restored = source.restore(spec.commandLine(), "zk-tree", paths, filter, err);
        if (restored == null) {
            return Segscope.EXIT_IO;
        }
        ZkTree tree = restored.result().tree();
        if (kafka) {
            printKafka(out, ZkKafka.read(tree), tree);
        } else if (tree.node(p) == null) {
            err.print("zk-tree: no znode " + p + " as of zxid 0x" + Long.toHexString(tree.lastProcessedZxid()) + "\n");
            out.flush();
            return restored.errors() ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        } else if (format == Format.jsonl) {
            JsonGenerator json = new JsonFactory().createGenerator(out);
            json.setRootValueSeparator(null);
            IOException[] failure = new IOException[1];
            tree.walk(p, (path, n) -> {
                if (failure[0] == null) {
                    try {
                        node(json, path, n, tree);
                        json.flush();
                        out.print('\n');
                    } catch (IOException e) {
                        failure[0] = e;
                    }
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
        } else {
            tree.walk(p, (path, n) -> out.print(text(path, n, tree) + "\n"));
        }
        out.flush();
        return restored.errors() ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
    }

    /** The data as UTF-8 text, or null when it is not valid UTF-8. */
    static String utf8(byte[] data) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private String text(String path, ZkNode n, ZkTree tree) {
        StringBuilder sb = new StringBuilder(path);
        byte[] d = n.data();
        if (d == null) {
            sb.append("  data=null");
        } else if (d.length > 0) {
            byte[] shown = Arrays.copyOf(d, Math.min(d.length, maxData));
            String s = utf8(shown);
            sb.append("  data=").append(s != null ? TextQuote.quote(s) : "base64:" + Base64.getEncoder().encodeToString(shown));
            if (shown.length < d.length) {
                sb.append("… (").append(d.length).append(" bytes)");
            }
        }
        sb.append("  version=").append(n.version()).append(" mzxid=0x").append(Long.toHexString(n.mzxid()))
                .append(" mtime=").append(Times.iso(n.mtime()));
        if (n.isContainer()) {
            sb.append(" container");
        } else if (n.ephemeralOwner() != 0) {
            sb.append(" ephemeral=0x").append(Long.toHexString(n.ephemeralOwner()))
                    .append(tree.sessionOpen(n.ephemeralOwner()) ? " (session open)" : "");
        }
        List<ZkAcl> acl = n.acl();
        if (acl != null && !acl.equals(ZkAcl.OPEN)) {
            sb.append(" acl=").append(acl);
        }
        return sb.toString();
    }

    private void node(JsonGenerator json, String path, ZkNode n, ZkTree tree) throws IOException {
        json.writeStartObject();
        json.writeStringField("path", path);
        byte[] d = n.data();
        if (d == null) {
            json.writeNullField("data");
            json.writeNullField("dataBase64");
        } else {
            byte[] shown = Arrays.copyOf(d, Math.min(d.length, maxData));
            json.writeStringField("data", utf8(shown));
            json.writeStringField("dataBase64", Base64.getEncoder().encodeToString(shown));
        }
        json.writeNumberField("dataLength", n.dataLength());
        json.writeBooleanField("dataCut", d != null && d.length > maxData);
        json.writeArrayFieldStart("acl");
        if (n.acl() != null) {
            for (ZkAcl a : n.acl()) {
                json.writeStartObject();
                json.writeNumberField("perms", a.perms());
                json.writeStringField("scheme", a.scheme());
                json.writeStringField("id", a.id());
                json.writeEndObject();
            }
        }
        json.writeEndArray();
        json.writeObjectFieldStart("stat");
        json.writeNumberField("czxid", n.czxid());
        json.writeNumberField("mzxid", n.mzxid());
        json.writeNumberField("pzxid", n.pzxid());
        json.writeNumberField("ctime", n.ctime());
        json.writeNumberField("mtime", n.mtime());
        json.writeNumberField("version", n.version());
        json.writeNumberField("cversion", n.cversion());
        json.writeNumberField("aversion", n.aversion());
        json.writeNumberField("ephemeralOwner", n.ephemeralOwner());
        json.writeNumberField("numChildren", n.numChildren());
        json.writeEndObject();
        if (n.ephemeralOwner() != 0 && !n.isContainer()) {
            json.writeBooleanField("sessionOpen", tree.sessionOpen(n.ephemeralOwner()));
        } else {
            json.writeNullField("sessionOpen");
        }
        json.writeEndObject();
    }

    private void printKafka(PrintWriter out, ZkKafka.View v, ZkTree tree) throws IOException {
        if (format == Format.jsonl) {
            JsonGenerator json = new JsonFactory().createGenerator(out);
            json.setRootValueSeparator(null);
            json.writeStartObject();
            json.writeStringField("asOfZxid", "0x" + Long.toHexString(tree.lastProcessedZxid()));
            json.writeStringField("clusterId", v.clusterId());
            if (v.controller() < 0) {
                json.writeNullField("controller");
            } else {
                json.writeNumberField("controller", v.controller());
            }
            if (v.controllerEpoch() == null) {
                json.writeNullField("controllerEpoch");
            } else {
                json.writeNumberField("controllerEpoch", v.controllerEpoch());
            }
            json.writeArrayFieldStart("brokers");
            for (ZkKafka.Broker b : v.brokers()) {
                json.writeStartObject();
                json.writeNumberField("id", b.id());
                json.writeStringField("registration", b.registration());
                json.writeBooleanField("sessionOpen", b.sessionOpen());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("topics");
            for (ZkKafka.Topic t : v.topics().values()) {
                json.writeStartObject();
                json.writeStringField("name", t.name());
                json.writeStringField("topicId", t.topicId());
                json.writeObjectFieldStart("assignment");
                for (Map.Entry<Integer, List<Integer>> e : t.assignment().entrySet()) {
                    json.writeArrayFieldStart(Integer.toString(e.getKey()));
                    for (int r : e.getValue()) {
                        json.writeNumber(r);
                    }
                    json.writeEndArray();
                }
                json.writeEndObject();
                json.writeObjectFieldStart("config");
                for (Map.Entry<String, String> e : t.config().entrySet()) {
                    json.writeStringField(e.getKey(), e.getValue());
                }
                json.writeEndObject();
                json.writeBooleanField("pendingDeletion", t.pendingDeletion());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("groups");
            for (String g : v.groups()) {
                json.writeStartObject();
                json.writeStringField("group", g);
                json.writeNumberField("offsets", v.offsets().stream().filter(o -> o.group().equals(g)).count());
                json.writeNumberField("consumers", v.consumers().stream().filter(c -> c.group().equals(g)).count());
                json.writeNumberField("consumersWithOpenSession", v.consumers().stream().filter(c -> c.group().equals(g) && c.sessionOpen()).count());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
            json.flush();
            out.print('\n');
            return;
        }
        out.print("cluster id: " + (v.clusterId() == null ? "-" : v.clusterId()) + "\n");
        out.print("controller: " + (v.controller() < 0 ? "-" : "broker " + v.controller())
                + ", epoch " + (v.controllerEpoch() == null ? "-" : v.controllerEpoch()) + "\n");
        out.print("as of zxid: 0x" + Long.toHexString(tree.lastProcessedZxid()) + "\n\n");
        Table b = new Table("BROKER", "SESSION", "REGISTRATION");
        for (ZkKafka.Broker br : v.brokers()) {
            b.add(Integer.toString(br.id()), br.sessionOpen() ? "open" : "closed", Table.cell(br.registration()));
        }
        if (b.size() > 0) {
            b.print(out);
            out.print("\n");
        }
        Table t = new Table("TOPIC", "PARTITIONS", "REPLICAS", "TOPIC-ID", "CONFIG", "PENDING-DELETION");
        for (ZkKafka.Topic tp : v.topics().values()) {
            StringBuilder replicas = new StringBuilder();
            tp.assignment().forEach((k, r) -> replicas.append(replicas.length() == 0 ? "" : " ").append(k).append(':').append(r));
            t.add(Table.cell(tp.name()), Integer.toString(tp.assignment().size()), replicas.toString(),
                    tp.topicId() == null ? "-" : tp.topicId(), Table.cell(tp.config().toString()), tp.pendingDeletion() ? "yes" : "no");
        }
        if (t.size() > 0) {
            t.print(out);
            out.print("\n");
        }
        Table g = new Table("GROUP", "OFFSETS", "CONSUMERS", "OPEN-SESSIONS");
        for (String gr : v.groups()) {
            g.add(Table.cell(gr), Long.toString(v.offsets().stream().filter(o -> o.group().equals(gr)).count()),
                    Long.toString(v.consumers().stream().filter(c -> c.group().equals(gr)).count()),
                    Long.toString(v.consumers().stream().filter(c -> c.group().equals(gr) && c.sessionOpen()).count()));
        }
        if (g.size() > 0) {
            g.print(out);
        }
    }
}
