/**
 * ZooKeeper-era Kafka state read offline (docs/format.md 5): {@link io.segscope.format.zookeeper.ZkDataDir}
 * finds a server's snapshots and transaction logs, {@link io.segscope.format.zookeeper.JuteInput} reads the
 * Jute encoding, {@link io.segscope.format.zookeeper.ZkSnapshot} and {@link io.segscope.format.zookeeper.ZkTxnLog}
 * the two files, {@link io.segscope.format.zookeeper.ZkRestore} is {@code FileTxnSnapLog.restore} into a
 * {@link io.segscope.format.zookeeper.ZkTree} (ZooKeeper 3.9.5's replay rules; a
 * {@link io.segscope.format.zookeeper.ZkPathFilter} keeps chosen subtrees) and
 * {@link io.segscope.format.zookeeper.ZkKafka} reads what Kafka kept there. No ZooKeeper code at run time.
 */
package io.segscope.format.zookeeper;
