/**
 * The one walk over Kafka's record files that every command and engine uses.
 *
 * <ul>
 * <li>{@link io.segscope.format.walk.SegmentWalk}: batches of one file in file order, with one
 *     damage policy: an entry that cannot be framed, a size running past the end, or (when asked)
 *     a wrong CRC is a {@link io.segscope.format.walk.Damage}; the walk resynchronises on the next
 *     good entry ({@link io.segscope.format.walk.Resync}) and goes on; damage with nothing good
 *     after it is a torn tail.</li>
 * <li>{@link io.segscope.format.walk.RecordWalk}: files in the order a
 *     {@link io.segscope.format.logdir.LogScanner} lists them, batch by batch and record by record,
 *     each record's content decoded by topic ({@link io.segscope.format.walk.Decoding}: coordinator
 *     records, KRaft metadata, tiered-storage metadata, control records, plugins of the
 *     {@code spi} package, plain bytes), filtered ({@link io.segscope.format.walk.RecordFilter}),
 *     handed to a {@link io.segscope.format.walk.RecordSink} with the batch it came from (producer
 *     id, transactional, control, base offset, position) and, for transactional data batches, how
 *     the transaction ended ({@link io.segscope.format.walk.TransactionOutcomes}).</li>
 * <li>{@link io.segscope.format.walk.ContentSniffer}: what a file named on its own is when its name
 *     does not say.</li>
 * </ul>
 *
 * {@code dump} writes what the walk yields; {@code verify} checks each batch it yields; the
 * offsets replay, the partition inventory and the compaction engine consume it in log order.
 */
package io.segscope.format.walk;
