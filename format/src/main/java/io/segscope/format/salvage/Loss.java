package io.segscope.format.salvage;

/**
 * Bytes of a partition that its salvaged copy does not hold.
 *
 * @param file the file the bytes were in
 * @param fromByte first byte lost
 * @param toByte end (exclusive) of the bytes lost
 * @param firstOffset first offset lost, or -1 when no offset is known to be lost
 * @param lastOffset last offset lost, or -1 when unknown (a torn tail whose header is gone)
 * @param kind what was there: the walk's finding ({@code crc-mismatch}, {@code torn-tail}, ...) or
 *     {@code dropped-batch} for a good batch that could not be kept
 * @param reason why, in words
 */
public record Loss(String file, long fromByte, long toByte, long firstOffset, long lastOffset, String kind,
                   String reason) {

    public long bytes() {
        return toByte - fromByte;
    }
}
