package io.segscope.testdata.generator;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * A Kafka Streams application on the streams rebalance protocol (KIP-1071, {@code group.protocol=
 * streams}): reads one topic, upper-cases the values and writes them to another. The topology is
 * the smallest that gives the group coordinator a subtopology with source and sink topics.
 *
 * <p>{@code kafka-streams} is on the class path only in the {@code generate-corpus} profile, so
 * the application is built by reflection; the default build compiles without it.
 */
final class StreamsApp implements AutoCloseable {
    private final Object streams;

    private StreamsApp(Object streams) {
        this.streams = streams;
    }

    /** Builds and starts {@code source -> mapValues(upper case) -> sink}. */
    static StreamsApp start(String bootstrap, String applicationId, String source, String sink, Path stateDir)
            throws ReflectiveOperationException {
        ClassLoader loader = StreamsApp.class.getClassLoader();
        Class<?> builderClass = Class.forName("org.apache.kafka.streams.StreamsBuilder", true, loader);
        Class<?> kstream = Class.forName("org.apache.kafka.streams.kstream.KStream", true, loader);
        Class<?> valueMapper = Class.forName("org.apache.kafka.streams.kstream.ValueMapper", true, loader);
        Class<?> topologyClass = Class.forName("org.apache.kafka.streams.Topology", true, loader);
        Class<?> streamsClass = Class.forName("org.apache.kafka.streams.KafkaStreams", true, loader);

        Object builder = builderClass.getConstructor().newInstance();
        Object stream = builderClass.getMethod("stream", String.class).invoke(builder, source);
        Object upper = Proxy.newProxyInstance(loader, new Class<?>[] {valueMapper}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "apply":
                    return args[0] == null ? null : ((String) args[0]).toUpperCase(Locale.ROOT);
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                default:
                    return "upper-case";
            }
        });
        Object mapped = kstream.getMethod("mapValues", valueMapper).invoke(stream, upper);
        kstream.getMethod("to", String.class).invoke(mapped, sink);
        Object topology = builderClass.getMethod("build").invoke(builder);

        Properties p = new Properties();
        p.put("application.id", applicationId);
        p.put("bootstrap.servers", bootstrap);
        p.put("group.protocol", "streams");
        p.put("client.id", "streams-app");
        p.put("num.stream.threads", "1");
        p.put("commit.interval.ms", "500");
        p.put("state.dir", stateDir.toString());
        p.put("default.key.serde", "org.apache.kafka.common.serialization.Serdes$StringSerde");
        p.put("default.value.serde", "org.apache.kafka.common.serialization.Serdes$StringSerde");
        Object streams = streamsClass.getConstructor(topologyClass, Properties.class).newInstance(topology, p);
        streamsClass.getMethod("start").invoke(streams);
        return new StreamsApp(streams);
    }

    /** {@code KafkaStreams.state()} by name: CREATED, REBALANCING, RUNNING, ERROR, ... */
    String state() throws ReflectiveOperationException {
        return streams.getClass().getMethod("state").invoke(streams).toString();
    }

    /** Closes without waiting: the broker is gone when the generator calls this. */
    @Override
    public void close() throws Exception {
        Method close = streams.getClass().getMethod("close", Duration.class);
        try {
            close.invoke(streams, Duration.ZERO);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }
}
