package io.segscope.inspector.cmd;

import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.inspector.output.ByteFormat;
import picocli.CommandLine;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Parsing of option values shared by several commands. */
final class CliOptions {
    private CliOptions() {
    }

    static ByteFormat byteFormat(String value, String option) {
        try {
            return ByteFormat.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(new Object()),
                    option + " must be text, hex or base64, not '" + value + "'");
        }
    }

    static Set<FileKind> fileKinds(List<String> names) {
        Set<FileKind> kinds = EnumSet.noneOf(FileKind.class);
        for (String n : names) {
            switch (n.trim().toLowerCase(Locale.ROOT)) {
                case "log" -> kinds.add(FileKind.LOG);
                case "index" -> kinds.add(FileKind.INDEX);
                case "timeindex" -> kinds.add(FileKind.TIME_INDEX);
                case "txnindex" -> kinds.add(FileKind.TXN_INDEX);
                case "snapshot" -> kinds.add(FileKind.SNAPSHOT);
                case "all" -> kinds.addAll(EnumSet.allOf(FileKind.class));
                default -> throw new CommandLine.ParameterException(new CommandLine(new Object()),
                        "--files takes log, index, timeindex, txnindex, snapshot or all, not '" + n + "'");
            }
        }
        return kinds;
    }

    static Set<Include> include(List<String> names) {
        Set<Include> include = Include.none();
        if (names == null) {
            return include;
        }
        for (String n : names) {
            switch (n.trim().toLowerCase(Locale.ROOT)) {
                case "deleted" -> include.add(Include.DELETED_FILES);
                case "cleaned" -> include.add(Include.CLEANED_FILES);
                case "swap" -> include.add(Include.SWAP_FILES);
                case "delete-dirs" -> include.add(Include.DELETE_DIRS);
                case "future-dirs" -> include.add(Include.FUTURE_DIRS);
                case "stray-dirs" -> include.add(Include.STRAY_DIRS);
                case "all" -> include.addAll(Include.all());
                default -> throw new CommandLine.ParameterException(new CommandLine(new Object()),
                        "--include takes deleted, cleaned, swap, delete-dirs, future-dirs, stray-dirs or all, not '" + n + "'");
            }
        }
        return include;
    }
}
