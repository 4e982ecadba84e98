/**
 * The code that makes the test data, run only on request through Maven profiles (never in
 * {@code mvn verify}): {@code CorpusGenerator} (real Kafka 4.4.0 and 3.9.1 KRaft brokers as child
 * JVMs on 127.0.0.1), {@code LegacyCorpusGenerator} (Kafka 3.9.1 in ZooKeeper mode writing magic
 * 0 and 1), {@code SyntheticSegments} (Kafka's own builder) and {@code CorruptCatalogue}. The
 * commands are in {@code testdata/corpus/README.md}, {@code testdata/corpus/LEGACY.md},
 * {@code testdata/synthetic/README.md} and {@code testdata/corrupt/README.md}.
 */
package io.segscope.testdata.generator;
