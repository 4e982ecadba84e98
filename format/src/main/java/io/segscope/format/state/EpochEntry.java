package io.segscope.format.state;

/** One leader epoch and the first offset written in it, with the byte position of its line. */
public record EpochEntry(int epoch, long startOffset, long position) {
}
