package io.segscope.jmh.e2e;

import java.nio.file.Path;
import java.util.Locale;

/**
 * {@link OffsetsSegmentGenerator}'s command line ({@code --help}). Without the options added for the
 * realistic partition ({@code --max-segments}, {@code --commit-records}, {@code --v3-percent},
 * {@code --topic-id-percent}, {@code --metadata-max-chars}, {@code --indexes}, {@code --preset}) the
 * generator writes the same {@code .log} bytes as before they existed
 * ({@code OffsetsSegmentGeneratorTest.defaultsWriteTheOriginalBytes}).
 */
final class GeneratorOptions {
    static final String USAGE = String.join("\n",
            "usage: OffsetsSegmentGenerator --out DIR [--preset realistic] [options]",
            "  --out DIR                the log dir to write __consumer_offsets-0 into",
            "  --partition N            write __consumer_offsets-N instead, of groups that hash to N of 50 (0)",
            "  --seed N                 random seed (42); the same options give the same bytes",
            "  --size-mib N             stop before the batch that would take the partition past N MiB (100)",
            "  --max-batches N          stop after N batches",
            "  --compression C          none (default), gzip, snappy, lz4 or zstd",
            "  --topics N               topics (600), of 1 to 128 partitions",
            "  --groups N               classic consumer groups (4000), all hashing to partition 0 of 50",
            "  --max-group-topics N     topics per group, at most (6)",
            "  --expire-percent P       share of writes that are expiration sweeps (about 2.8 by default)",
            "  --segment-mib N          roll a segment before the one that would pass N MiB (default: one segment)",
            "  --max-segments N         stop before the batch that would start segment N+1",
            "  --txn-percent P          share of commit requests that are TxnOffsetCommits, closed later by",
            "                           COMMIT (85%) or ABORT markers (0)",
            "  --commit-records MIN-MAX records per commit request, uniform, at most the member's partitions",
            "                           (default: 5 + two draws of 0-12, at most the member's partitions)",
            "  --v3-percent P           the first P% of --size-mib (counted uncompressed) written by a 3.x",
            "                           coordinator: OffsetCommitValue v3, partition leader epoch 7; then the",
            "                           broker's upgrade to 4.4: v4, leader epoch 8 (0)",
            "  --topic-id-percent P     share of groups whose v4 commits name the topic id (100); the others'",
            "                           carry the zero UUID, which the tagged field leaves out",
            "  --metadata-max-chars N   commit metadata of at most N chars, spread up to N (default: unbounded)",
            "  --indexes                open the written partition once with Kafka's UnifiedLog and shut it down",
            "                           cleanly: its recovery writes .index, .timeindex, .txnindex,",
            "                           leader-epoch-checkpoint and producer snapshots, as a broker leaves them",
            "                           (--no-indexes: .log files only)",
            "  --preset realistic       the partition of the performance issue (jmh/GENERATOR.md); explicit options",
            "                           override it:",
            wrap(String.join(" ", realisticArgs()), "                           ", 100),
            "Writes DIR/__consumer_offsets-0/*.log, DIR/expected-offsets.csv (what `segscope offsets --format csv`",
            "prints for it) and DIR/generator.facts (also printed).");

    Path out;
    String preset;
    long seed = 42;
    long sizeMib = 100;
    String codec = "none";
    int topics = 600;
    int groups = 4000;
    long maxBatches = Long.MAX_VALUE;
    long segmentMib;
    int maxSegments = Integer.MAX_VALUE;
    double txnPercent;
    /** Negative: the original share (a probability threshold of 0.035). */
    double expirePercent = -1;
    int maxGroupTopics = 6;
    /** 0: the original draw. */
    int commitMin;
    int commitMax;
    double v3Percent;
    double topicIdPercent = 100;
    /** 0: unbounded, the original mix. */
    int metadataMaxChars;
    boolean indexes;
    /** The {@code __consumer_offsets} partition written, and the one every group id hashes to. */
    int partition;

    /**
     * The partition of the performance issue: about 10,000 groups of about 20 partitions each, 300
     * MiB in three 100 MiB segments with their indexes, commit requests of 1 to 20 partitions, ~7%
     * of them transactional, ~5% tombstones, a 3.x-to-4.4 upgrade after the first fifth (v3 then v4
     * values, with a topic id for half of the groups), metadata up to 200 chars.
     */
    static String[] realisticArgs() {
        return new String[] {"--groups", "10000", "--topics", "600", "--max-group-topics", "1", "--size-mib", "300",
            "--segment-mib", "100", "--max-segments", "3", "--commit-records", "1-20", "--txn-percent", "7", "--expire-percent", "4.5",
            "--v3-percent", "20", "--topic-id-percent", "50", "--metadata-max-chars", "200", "--indexes"};
    }

    /** {@code text} in lines of at most {@code width} chars, each starting with {@code indent}. */
    private static String wrap(String text, String indent, int width) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" ")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                out.append(line).append('\n');
                line.setLength(0);
                line.append(indent);
            }
            line.append(line.length() > indent.length() ? " " : "").append(word);
        }
        return out.append(line).toString();
    }

    /** Parses {@code args}; a preset's options come first, whatever their place, so that explicit ones override them. */
    static GeneratorOptions parse(String[] args) {
        GeneratorOptions o = new GeneratorOptions();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--preset")) {
                o.preset = value(args, ++i);
                if (!o.preset.equals("realistic")) {
                    throw new IllegalArgumentException("unknown preset: " + o.preset + " (known: realistic)");
                }
                o.apply(realisticArgs());
            }
        }
        o.apply(args);
        if (o.out == null) {
            throw new IllegalArgumentException("--out is required");
        }
        if (o.partition < 0 || o.partition >= OffsetsSegmentGenerator.OFFSETS_PARTITIONS) {
            throw new IllegalArgumentException("--partition takes 0 to 49, not " + o.partition);
        }
        return o;
    }

    private void apply(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--out" -> out = Path.of(value(args, ++i));
                case "--preset" -> i++;
                case "--partition" -> partition = Integer.parseInt(value(args, ++i));
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--size-mib" -> sizeMib = Long.parseLong(value(args, ++i));
                case "--compression" -> codec = value(args, ++i).toLowerCase(Locale.ROOT);
                case "--topics" -> topics = Integer.parseInt(value(args, ++i));
                case "--groups" -> groups = Integer.parseInt(value(args, ++i));
                case "--max-batches" -> maxBatches = Long.parseLong(value(args, ++i));
                case "--segment-mib" -> segmentMib = Long.parseLong(value(args, ++i));
                case "--max-segments" -> maxSegments = Integer.parseInt(value(args, ++i));
                case "--txn-percent" -> txnPercent = percent(a, value(args, ++i));
                case "--expire-percent" -> expirePercent = percent(a, value(args, ++i));
                case "--max-group-topics" -> maxGroupTopics = Integer.parseInt(value(args, ++i));
                case "--commit-records" -> commitRecords(value(args, ++i));
                case "--v3-percent" -> v3Percent = percent(a, value(args, ++i));
                case "--topic-id-percent" -> topicIdPercent = percent(a, value(args, ++i));
                case "--metadata-max-chars" -> metadataMaxChars = Integer.parseInt(value(args, ++i));
                case "--indexes" -> indexes = true;
                case "--no-indexes" -> indexes = false;
                default -> throw new IllegalArgumentException("unknown argument: " + a);
            }
        }
    }

    private void commitRecords(String v) {
        int dash = v.indexOf('-');
        if (dash <= 0) {
            throw new IllegalArgumentException("--commit-records takes MIN-MAX, not " + v);
        }
        commitMin = Integer.parseInt(v.substring(0, dash));
        commitMax = Integer.parseInt(v.substring(dash + 1));
        if (commitMin < 1 || commitMax < commitMin) {
            throw new IllegalArgumentException("--commit-records: need 1 <= MIN <= MAX, not " + v);
        }
    }

    private static double percent(String option, String v) {
        double p = Double.parseDouble(v);
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException(option + " takes a percentage from 0 to 100, not " + v);
        }
        return p;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
