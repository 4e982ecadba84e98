/**
 * What a log dir holds, beyond its bytes: {@link io.segscope.format.inventory.MetadataTopics}
 * replays the KRaft metadata log (snapshot, then the records past it) into the topics it knows,
 * their ids and partition counts. {@code locate} reads the partition count of
 * {@code __consumer_offsets} from it; the partition inventory and lag will build on it.
 */
package io.segscope.format.inventory;
