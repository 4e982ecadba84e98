package io.segscope.testdata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds the committed corpus on disk. Tests map files, and mapped files cannot come from a jar,
 * so surefire passes the repository root as the system property {@code segscope.root}; without
 * it (an IDE run) the root is found by walking up from the working directory.
 */
public final class Corpus {
    private Corpus() {
    }

    /** The repository root (the directory holding {@code testdata/}). */
    public static Path root() {
        String prop = System.getProperty("segscope.root");
        if (prop != null && !prop.isBlank() && Files.isDirectory(Paths.get(prop, "testdata"))) {
            return Paths.get(prop).toAbsolutePath().normalize();
        }
        Path p = Paths.get("").toAbsolutePath();
        while (p != null) {
            if (Files.isDirectory(p.resolve("testdata")) && Files.exists(p.resolve("pom.xml"))) {
                return p;
            }
            p = p.getParent();
        }
        throw new IllegalStateException("cannot find the segscope repository root; set -Dsegscope.root");
    }

    /** {@code testdata/} itself. */
    public static Path testdata() {
        return root().resolve("testdata");
    }

    /** A path below {@code testdata/}. */
    public static Path resolve(String relative) {
        return testdata().resolve(relative);
    }

    /** {@code testdata/corpus/}: real-broker log dirs, Admin API JSON and DumpLogSegments output. */
    public static Path corpus() {
        return testdata().resolve("corpus");
    }

    /**
     * {@code testdata/corpus-replicas/}: runs of a cluster of several brokers, each run holding one
     * log dir per broker ({@code logdirs/broker-<id>/}, dumps in {@code dumps/broker-<id>/}).
     * Kept beside {@link #corpus()}, not in it, so that the tests going over every run's
     * {@code logdir/} (and the golden outputs of the whole corpus) never see them.
     */
    public static Path replicaCorpus() {
        return testdata().resolve("corpus-replicas");
    }

    /**
     * {@code testdata/corpus-zookeeper/}: data dirs written by real ZooKeeper servers with what the
     * client read back ({@code expected.json}), every write ({@code history.json}) and how each
     * run was made ({@code run.json}); see its README.
     */
    public static Path zookeeperCorpus() {
        return testdata().resolve("corpus-zookeeper");
    }

    /** The runs of {@link #zookeeperCorpus()}: its subdirectories holding a {@code run.json}. */
    public static List<Path> zookeeperRuns() {
        return subdirs(zookeeperCorpus()).stream()
                .filter(r -> Files.isRegularFile(r.resolve("run.json")))
                .collect(Collectors.toList());
    }

    /** The runs of {@link #replicaCorpus()} (the directories holding {@code logdirs/}), sorted. */
    public static List<Path> replicaRuns() {
        return subdirs(replicaCorpus()).stream()
                .filter(r -> Files.isDirectory(r.resolve("logdirs")))
                .collect(Collectors.toList());
    }

    /** A replica run's broker log dirs, {@code <run>/logdirs/broker-<id>}, sorted by name. */
    public static List<Path> brokerLogDirs(Path run) {
        return subdirs(run.resolve("logdirs")).stream()
                .filter(d -> d.getFileName().toString().startsWith("broker-"))
                .collect(Collectors.toList());
    }

    private static List<Path> subdirs(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The directory a dump directory of the corpus mirrors: {@code dump/} holds the dumps of
     * {@code logdir/}, {@code dump-<dir>/} those of {@code <dir>/} (the killed run's
     * {@code dump-copied-while-writing/}).
     */
    public static Path dumpedDir(Path dumpRoot) {
        String n = dumpRoot.getFileName().toString();
        return dumpRoot.resolveSibling(n.startsWith("dump-") ? n.substring("dump-".length()) : "logdir");
    }

    /** {@code testdata/synthetic/}: legacy segments built with Kafka's own builder. */
    public static Path synthetic() {
        return testdata().resolve("synthetic");
    }

    /** Every file below {@code dir} whose name ends with {@code suffix}, sorted by path. */
    public static List<Path> filesEndingWith(Path dir, String suffix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().endsWith(suffix))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
