package io.segscope.testdata.generator;

import java.util.List;
import java.util.Random;

import org.apache.kafka.common.utils.Utils;

/** Group ids, commit metadata and record payloads the workload uses: ordinary and hostile text. */
final class Texts {
    private Texts() {
    }

    /** Group ids of "simple" groups (assign + commit): commas, quotes, spaces, non-ASCII, control characters. */
    static final List<String> SIMPLE_GROUPS = List.of(
            "simple,comma,group",
            "simple \"quoted\" group",
            "simple back\\slash",
            "simple group with spaces",
            "simple.dots-and-dashes_01",
            "simple-é-ü-ß-ñ",
            "シンプル.日本語.グループ",
            "simple-emoji-🚀-🔥",
            "simple\ttab",
            "simple\nnewline",
            "simple-{\"json\":[1,2]}",
            "simple-plain-ascii");

    private static final String[] WORDS = {
        "alpha", "beta", "gamma", "delta", "host", "rack", "zone", "eu-west-1", "commit", "epoch",
        "partition", "offset", "lag", "consumer", "worker", "thread", "checkpoint", "replica",
        "é", "日本語", "ключ", "🚀", ",", "\"", "\\", "\n", "\t", "{", "}", ":", "=", ";"
    };

    /** Commit metadata in one of four styles: empty, short ASCII, long (~2 KB), hostile. */
    static String metadata(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return "";
            case 1:
                return "host-" + r.nextInt(100) + " gen " + r.nextInt(10);
            case 2:
                return longMetadata(r, 2000);
            default:
                return hostile(r);
        }
    }

    /** Short text with every character class that breaks naive CSV/JSON/line handling. */
    static String hostile(Random r) {
        return "a,b;\"quoted\" back\\slash\nnew line\ttab é 日本語 🚀 #" + r.nextInt(1000);
    }

    /** About {@code chars} characters of words and separators, hostile ones included. */
    static String longMetadata(Random r, int chars) {
        StringBuilder sb = new StringBuilder(chars + 32);
        sb.append("long#").append(r.nextInt(1_000_000)).append(':');
        while (sb.length() < chars) {
            sb.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(3) == 0 ? "," : " ");
        }
        return sb.substring(0, chars);
    }

    /** A record value of {@code min..max} characters. */
    static String value(Random r, int i, int min, int max) {
        int len = min + r.nextInt(max - min + 1);
        StringBuilder sb = new StringBuilder(len + 32);
        sb.append("{\"n\":").append(i).append(",\"text\":\"");
        while (sb.length() < len) {
            sb.append(WORDS[r.nextInt(18)]).append(' ');
        }
        return sb.append("\"}").toString();
    }

    /** Kafka's group-to-partition rule for {@code __consumer_offsets}. */
    static int offsetsPartition(String groupId, int partitions) {
        return Utils.abs(groupId.hashCode()) % partitions;
    }

    /** {@code prefix} plus the first numeric suffix that lands in {@code partition}. */
    static String groupInPartition(String prefix, int partition, int partitions, int skip) {
        int found = 0;
        for (int i = 0; ; i++) {
            String id = prefix + i;
            if (offsetsPartition(id, partitions) == partition && found++ == skip) {
                return id;
            }
        }
    }
}
