package io.segscope.format.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The operating system's reason for an I/O failure, in words: Java's file exceptions carry only
 * the path in their message ({@code AccessDeniedException: /data/x.log}), which says nothing.
 */
public final class IoReasons {
    private IoReasons() {
    }

    /** E.g. {@code "permission denied"}, {@code "no such file or directory"}, {@code "Is a directory"}. */
    public static String of(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
