package io.segscope.format.verify;

import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;

import java.nio.ByteBuffer;
import java.util.List;

/** A file held in memory, for verifying bytes built in a test. */
record MemoryEntry(String name, ByteBuffer bytes) implements FileEntry {
    @Override public String path() { return name; }
    @Override public boolean isDirectory() { return false; }
    @Override public long size() { return bytes.remaining(); }
    @Override public List<FileEntry> children() { return List.of(); }
    @Override public ByteSource open() { return ByteSource.wrap(bytes.duplicate(), name); }
}
