package io.segscope.testdata.generator;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The killed run's workload ({@link RunSpec#killed()}): four producers appending large batches
 * (200-900 KiB of values before compression) to the one partition of {@value #TOPIC}, and four
 * consumer groups committing offsets to one {@code __consumer_offsets} partition while they do.
 * While the broker writes, {@code burst-0} and that offsets partition are copied file by file
 * ({@link LiveCopy}) into {@code copied-while-writing/}, again until the copy of
 * {@code burst-0}'s active segment ends in the middle of a batch (at most {@value #COPY_ATTEMPTS}
 * times). Then the groups stop committing (the Admin snapshot taken next is what Kafka had
 * committed when it was killed) while the producers go on, and {@link #kill} SIGKILLs the broker
 * as an append to {@code burst-0} begins.
 */
final class MidWriteBurst {
    static final String TOPIC = "burst";
    /** Partitions the groups commit besides burst-0; nothing is produced to them. */
    static final String SIDE_TOPIC = "burst-side";
    static final String COPY_DIR = "copied-while-writing";
    static final String TXN_ID = "burst-txn-ü";
    private static final int COPY_ATTEMPTS = 100;
    /** Commits per group at most (they stop when the copy is done), so that __consumer_offsets stays small. */
    private static final int MAX_COMMITS = 100;

    private final Workload w;
    private final Path copyDir;
    private final Path burstDir;
    private final Path offsetsDir;
    private final int offsetsPartition;
    private final List<String> groups = new ArrayList<>();
    private final String txnGroup;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean committing = new AtomicBoolean(true);
    private final AtomicInteger offsetTxnsInFlight = new AtomicInteger();
    private final List<Thread> producers = new ArrayList<>();
    private final List<Thread> committers = new ArrayList<>();
    private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> batchesSent = new TreeMap<>();
    private final Map<String, AtomicInteger> commits = new TreeMap<>();
    private final Map<String, Object> facts = new LinkedHashMap<>();
    private final List<AutoCloseable> clients = Collections.synchronizedList(new ArrayList<>());

    MidWriteBurst(Workload w, Path copyDir) {
        this.w = w;
        this.copyDir = copyDir;
        this.burstDir = w.logDir().resolve(TOPIC + "-0");
        int partitions = w.spec().offsetsPartitions();
        this.offsetsPartition = Texts.offsetsPartition("burst-é,\"g\"", partitions);
        this.offsetsDir = w.logDir().resolve("__consumer_offsets-" + offsetsPartition);
        for (int i = 0; i < 3; i++) {
            groups.add(Texts.groupInPartition("burst-é,\"g\"-", offsetsPartition, partitions, i));
        }
        this.txnGroup = Texts.groupInPartition("burst-txn-group-", offsetsPartition, partitions, 0);
        // filled before the client threads start: they only read these maps
        for (String g : groups) {
            commits.put(g, new AtomicInteger());
        }
        commits.put(txnGroup, new AtomicInteger());
    }

    /** What the burst and the copy did, for run.json. */
    Map<String, Object> facts() {
        facts.put("offsetsPartition", offsetsPartition);
        facts.put("groups", groups);
        facts.put("transactionalGroup", txnGroup);
        facts.put("batchesSentByProducer", ints(batchesSent));
        facts.put("commitsByGroup", ints(commits));
        return facts;
    }

    private static Map<String, Integer> ints(Map<String, AtomicInteger> m) {
        Map<String, Integer> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Topics, the burst, the copy while writing; returns once the groups have stopped committing. */
    void run() throws Exception {
        Map<String, String> burstConfig = new HashMap<>();
        burstConfig.put("segment.bytes", "1048576");
        burstConfig.put("retention.bytes", "1048576");
        burstConfig.put("file.delete.delay.ms", "1000");
        w.admin().createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(burstConfig),
                new NewTopic(SIDE_TOPIC, 4, (short) 1))).all().get(60, TimeUnit.SECONDS);
        w.step("created " + TOPIC + " (1 partition, segment.bytes 1 MiB, retention.bytes 1 MiB) and "
                + SIDE_TOPIC + " (4 partitions, never produced to)");

        startProducer("burst-none-idempotent", Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "none"), false);
        startProducer("burst-zstd-idempotent", Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd"), false);
        startProducer("burst-gzip-acks1", Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip"), false);
        startProducer("burst-lz4-transactional", Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TXN_ID,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"), true);
        for (int i = 0; i < groups.size(); i++) {
            startCommitter(groups.get(i), i);
        }
        w.step("burst: 4 producers into " + TOPIC + "-0, groups " + groups + " and transactional group '"
                + txnGroup + "' committing to __consumer_offsets-" + offsetsPartition);

        waitForSegments(3, 120);
        waitForCommits(3, 120);
        failIfBroken();
        copyWhileWriting();
        failIfBroken();

        committing.set(false);
        for (Thread t : committers) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (offsetTxnsInFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        // transaction markers are written after EndTxn answers
        Thread.sleep(3000);
        failIfBroken();
        w.step("groups stopped committing; the producers go on");
    }

    /**
     * SIGKILLs the broker during the burst: waits {@code afterMs}, then for an append to
     * {@code burst-0}'s active segment to begin, and kills at once. Returns the exit code.
     */
    int kill(Broker broker, long afterMs) throws Exception {
        Thread.sleep(afterMs);
        failIfBroken();
        for (int tries = 0; tries < 20; tries++) {
            Path active = activeLog(burstDir);
            try (FileChannel ch = FileChannel.open(active, StandardOpenOption.READ)) {
                long before = ch.size();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                long size;
                while ((size = ch.size()) <= before && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                if (size <= before) {
                    continue; // rolled meanwhile: watch the new active segment
                }
                int exit = broker.kill();
                stop.set(true);
                Map<String, Object> k = new LinkedHashMap<>();
                k.put("activeSegment", active.getFileName().toString());
                k.put("sizeBeforeAppend", before);
                k.put("sizeWhenKillSent", size);
                k.put("sizeAfterKill", ch.size());
                facts.put("kill", k);
                w.step("SIGKILL as " + active.getFileName() + " grew from " + before + " to " + size + " bytes");
                return exit;
            }
        }
        throw new IllegalStateException("no append to " + TOPIC + "-0 seen to kill the broker during");
    }

    /** After the kill: what the killed log dir's burst-0 and offsets partition end with. */
    @SuppressWarnings("unchecked")
    void recordKilledTails(Path logDir) throws Exception {
        Map<String, Object> t = new LinkedHashMap<>();
        for (String dir : List.of(TOPIC + "-0", "__consumer_offsets-" + offsetsPartition)) {
            Path p = logDir.resolve(dir);
            Map<String, Object> logs = new LinkedHashMap<>();
            for (Path log : logs(p)) {
                logs.put(log.getFileName().toString(), LiveCopy.tail(log));
            }
            t.put(dir, logs);
        }
        ((Map<String, Object>) facts.get("kill")).put("killedLogDirTails", t);
    }

    /** Stops the client threads (the broker is gone); producers are closed without waiting, consumers close themselves. */
    void stopClients() throws InterruptedException {
        stop.set(true);
        committing.set(false);
        for (AutoCloseable c : new ArrayList<>(clients)) {
            try {
                if (c instanceof KafkaProducer) {
                    ((KafkaProducer<?, ?>) c).close(Duration.ZERO);
                }
            } catch (Exception ignored) {
                // the broker is gone
            }
        }
        for (Thread t : producers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private void failIfBroken() {
        if (!failures.isEmpty()) {
            IllegalStateException e = new IllegalStateException("burst client failed: " + failures.get(0));
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    // ---------------------------------------------------------------- the copy

    private void copyWhileWriting() throws Exception {
        Path attempts = copyDir.resolveSibling(COPY_DIR + "-attempts");
        List<Map<String, Object>> tried = new ArrayList<>();
        for (int attempt = 1; attempt <= COPY_ATTEMPTS; attempt++) {
            Path into = attempts.resolve(String.valueOf(attempt));
            LiveCopy copy = new LiveCopy();
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("attempt", attempt);
            a.put("startedAt", java.time.Instant.now().toString());
            // name order, as a recursive copy of the log dir would go
            a.put("__consumer_offsets-" + offsetsPartition, copy.copyPartition(offsetsDir,
                    into.resolve(offsetsDir.getFileName().toString()), false));
            Map<String, Object> burst = copy.copyPartition(burstDir, into.resolve(burstDir.getFileName().toString()), true);
            a.put(TOPIC + "-0", burst);
            boolean torn = false;
            for (Object f : burst.values()) {
                Object tail = ((Map<?, ?>) f).get("tail");
                torn |= tail != null && Boolean.TRUE.equals(((Map<?, ?>) tail).get("torn"));
            }
            tried.add(Map.of("attempt", attempt, "burst0Torn", torn));
            if (torn) {
                Trees.deleteTree(copyDir);
                Files.move(into, copyDir);
                Trees.deleteTree(attempts);
                facts.put("copyAttempts", tried);
                facts.put("copy", a);
                w.step("copied __consumer_offsets-" + offsetsPartition + " and " + TOPIC
                        + "-0 while the broker wrote; attempt " + attempt + " ended mid-batch");
                return;
            }
            Trees.deleteTree(into);
        }
        throw new IllegalStateException("no copy of " + TOPIC + "-0 ended mid-batch in " + COPY_ATTEMPTS + " attempts");
    }

    private void waitForSegments(int n, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (logs(burstDir).size() < n) {
            failIfBroken();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(TOPIC + "-0 did not reach " + n + " segments in " + seconds + " s");
            }
            Thread.sleep(100);
        }
    }

    /** Until every group (the transactional one included) has committed {@code n} times. */
    private void waitForCommits(int n, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            failIfBroken();
            boolean all = Files.isDirectory(offsetsDir);
            for (String g : groups) {
                all &= commits.get(g).get() >= n;
            }
            all &= commits.get(txnGroup).get() >= n;
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("groups did not commit " + n + " times in " + seconds + " s: " + commits);
            }
            Thread.sleep(100);
        }
    }

    private static List<Path> logs(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().collect(Collectors.toList());
        }
    }

    private static Path activeLog(Path dir) throws Exception {
        List<Path> l = logs(dir);
        return l.get(l.size() - 1);
    }

    // ---------------------------------------------------------------- clients

    private void startProducer(String clientId, Map<String, Object> extra, boolean transactional) {
        Map<String, Object> props = new HashMap<>(extra);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(960 * 1024));
        props.put(ProducerConfig.LINGER_MS_CONFIG, "200");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(1000 * 1024));
        KafkaProducer<String, String> p = w.producer(props);
        clients.add(p);
        AtomicInteger sent = batchesSent.computeIfAbsent(clientId, k -> new AtomicInteger());
        Random random = new Random(w.spec().seed() ^ clientId.hashCode());
        Thread t = new Thread(() -> {
            try {
                if (transactional) {
                    p.initTransactions();
                }
                for (int round = 0; !stop.get(); round++) {
                    boolean withOffsets = false;
                    if (transactional) {
                        p.beginTransaction();
                        if (committing.get() && commits.get(txnGroup).get() < MAX_COMMITS) {
                            offsetTxnsInFlight.incrementAndGet();
                            withOffsets = true;
                        }
                    }
                    // one batch: values up to a target of 200-900 KiB, then flush
                    int target = (200 + random.nextInt(701)) * 1024;
                    int bytes = 0;
                    for (int i = 0; bytes < target - 9000; i++) {
                        String value = value(random, 2048 + random.nextInt(6 * 1024));
                        bytes += value.length() + 40;
                        p.send(new ProducerRecord<>(TOPIC, 0, clientId + "-" + round + "-" + i, value));
                    }
                    p.flush();
                    sent.incrementAndGet();
                    if (transactional) {
                        if (withOffsets) {
                            Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
                            for (int q = 0; q < 2; q++) {
                                TopicPartition tp = new TopicPartition(SIDE_TOPIC, q);
                                synchronized (w) {
                                    m.put(tp, w.nextCommit(txnGroup, tp, "txn round " + round));
                                }
                            }
                            p.sendOffsetsToTransaction(m, new ConsumerGroupMetadata(txnGroup));
                            commits.get(txnGroup).incrementAndGet();
                        }
                        if (round % 4 == 2) {
                            p.abortTransaction();
                        } else {
                            p.commitTransaction();
                        }
                        if (withOffsets) {
                            offsetTxnsInFlight.decrementAndGet();
                        }
                    }
                    // slow enough that the broker is idle between appends (and the copy's timing is its own)
                    Thread.sleep(1500 + random.nextInt(2000));
                }
            } catch (Throwable e) {
                if (!stop.get()) {
                    failures.add(e);
                }
            }
        }, "producer-" + clientId);
        t.setDaemon(true);
        producers.add(t);
        t.start();
    }

    /** Group {@code i}: 0 and 1 assign and commit (simple groups), 2 subscribes (a classic member). */
    private void startCommitter(String group, int i) {
        KafkaConsumer<String, String> c = w.consumer(group, "classic", "burst-committer-" + i);
        AtomicInteger n = commits.get(group);
        Random random = new Random(w.spec().seed() ^ group.hashCode());
        List<TopicPartition> tps = new ArrayList<>();
        tps.add(new TopicPartition(TOPIC, 0));
        for (int q = 0; q < 4; q++) {
            tps.add(new TopicPartition(SIDE_TOPIC, q));
        }
        boolean subscribe = i == 2;
        Thread t = new Thread(() -> {
            try {
                if (subscribe) {
                    c.subscribe(List.of(SIDE_TOPIC));
                } else {
                    c.assign(tps);
                }
                long next = 0;
                while (committing.get() && n.get() < MAX_COMMITS) {
                    if (subscribe) {
                        c.poll(Duration.ofMillis(100));
                    } else {
                        Thread.sleep(50);
                    }
                    if (System.currentTimeMillis() < next || (subscribe && c.assignment().isEmpty())) {
                        continue;
                    }
                    Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
                    for (TopicPartition tp : subscribe ? new ArrayList<>(c.assignment()) : tps) {
                        m.put(tp, nextCommit(group, tp, random));
                    }
                    c.commitSync(m, Duration.ofSeconds(60));
                    n.incrementAndGet();
                    next = System.currentTimeMillis() + 800 + random.nextInt(800);
                }
                if (!subscribe) {
                    c.close(Duration.ofSeconds(30));
                    return;
                }
                // the subscribed member stays in its group, polling, until the broker is killed
                while (!stop.get()) {
                    c.poll(Duration.ofMillis(200));
                }
                c.close(Duration.ZERO);
            } catch (Throwable e) {
                if (!stop.get()) {
                    failures.add(e);
                }
            }
        }, "committer-" + i);
        t.setDaemon(true);
        (subscribe ? producers : committers).add(t);
        t.start();
    }

    private OffsetAndMetadata nextCommit(String group, TopicPartition tp, Random random) {
        synchronized (w) {
            String metadata;
            switch (random.nextInt(4)) {
                case 0:
                    metadata = "";
                    break;
                case 1:
                    metadata = "host-" + random.nextInt(100) + " gen " + random.nextInt(10);
                    break;
                case 2:
                    metadata = Texts.longMetadata(random, 300);
                    break;
                default:
                    metadata = Texts.hostile(random);
            }
            return w.nextCommit(group, tp, metadata);
        }
    }

    /** About {@code len} characters that compress little (base64 of random bytes). */
    private static String value(Random random, int len) {
        byte[] b = new byte[len * 3 / 4];
        random.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }
}
