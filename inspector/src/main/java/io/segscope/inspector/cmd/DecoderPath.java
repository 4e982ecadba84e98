package io.segscope.inspector.cmd;

import io.segscope.format.walk.spi.RecordDecoders;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;

/** The record decoder plugins of {@code dump --decoder-path}: a class loader over the jars and dirs given. */
final class DecoderPath {
    private DecoderPath() {
    }

    /**
     * The plugins found on the classpath and in {@code paths} (a jar, or a dir: the jars in it and
     * the dir as a class dir).
     *
     * @throws CommandLine.ParameterException for a path that is neither, or a plugin that does not load
     */
    static RecordDecoders load(List<Path> paths, CommandLine cl) {
        ClassLoader parent = DecoderPath.class.getClassLoader();
        if (paths == null || paths.isEmpty()) {
            return loadWith(parent, cl);
        }
        List<URL> urls = new ArrayList<>();
        for (Path p : paths) {
            try {
                if (Files.isDirectory(p)) {
                    urls.add(p.toUri().toURL());
                    try (Stream<Path> s = Files.list(p)) {
                        for (Path jar : s.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                            urls.add(jar.toUri().toURL());
                        }
                    }
                } else if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".jar")) {
                    urls.add(p.toUri().toURL());
                } else {
                    throw new CommandLine.ParameterException(cl, "--decoder-path " + p + ": not a jar or a directory");
                }
            } catch (MalformedURLException e) {
                throw new CommandLine.ParameterException(cl, "--decoder-path " + p + ": " + e.getMessage());
            } catch (IOException e) {
                throw new CommandLine.ParameterException(cl, "--decoder-path " + p + ": cannot list: " + e.getMessage());
            }
        }
        // the loader lives as long as the run: the plugins' classes are used to the end
        return loadWith(new URLClassLoader("segscope-decoders", urls.toArray(new URL[0]), parent), cl);
    }

    private static RecordDecoders loadWith(ClassLoader loader, CommandLine cl) {
        try {
            return RecordDecoders.load(loader);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--decoder-path: " + e.getMessage());
        }
    }
}
