package io.segscope.format.index;

/** An offset-index answer: an absolute offset and the byte position in the .log of the batch holding it. */
public record OffsetPosition(long offset, int position) {
}
