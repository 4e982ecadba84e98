package io.segscope.testdata.generator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

/** What starting a broker, ZooKeeper or a Kafka tool as a child JVM on 127.0.0.1 needs. */
final class ChildJvms {
    private ChildJvms() {
    }

    /** The {@code java} binary of the running JVM. */
    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A TCP port on 127.0.0.1 that nothing listens on now. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
