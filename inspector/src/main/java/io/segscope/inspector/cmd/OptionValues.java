package io.segscope.inspector.cmd;

import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import picocli.CommandLine;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Values of options shared by several commands, converted by picocli (a bad value is a usage
 * error, exit 2) and offered by shell completion.
 */
final class OptionValues {
    private OptionValues() {
    }

    /** {@code --files}: the kinds of file taken from directories. */
    enum FileChoice {
        log, index, timeindex, txnindex, snapshot, all;

        static Set<FileKind> kinds(List<FileChoice> choices) {
            Set<FileKind> kinds = EnumSet.noneOf(FileKind.class);
            for (FileChoice c : choices) {
                switch (c) {
                    case log -> kinds.add(FileKind.LOG);
                    case index -> kinds.add(FileKind.INDEX);
                    case timeindex -> kinds.add(FileKind.TIME_INDEX);
                    case txnindex -> kinds.add(FileKind.TXN_INDEX);
                    case snapshot -> kinds.add(FileKind.SNAPSHOT);
                    case all -> kinds.addAll(EnumSet.of(FileKind.LOG, FileKind.INDEX, FileKind.TIME_INDEX,
                            FileKind.TXN_INDEX, FileKind.SNAPSHOT));
                }
            }
            return kinds;
        }
    }

    /** {@code --include}: what Kafka would delete or ignore, read too. */
    enum IncludeChoice {
        DELETED("deleted", Include.DELETED_FILES),
        CLEANED("cleaned", Include.CLEANED_FILES),
        SWAP("swap", Include.SWAP_FILES),
        DELETE_DIRS("delete-dirs", Include.DELETE_DIRS),
        FUTURE_DIRS("future-dirs", Include.FUTURE_DIRS),
        STRAY_DIRS("stray-dirs", Include.STRAY_DIRS),
        ALL("all", null);

        private final String label;
        private final Include include;

        IncludeChoice(String label, Include include) {
            this.label = label;
            this.include = include;
        }

        static Set<Include> includes(List<IncludeChoice> choices) {
            Set<Include> set = Include.none();
            if (choices != null) {
                for (IncludeChoice c : choices) {
                    if (c == ALL) {
                        set.addAll(Include.all());
                    } else {
                        set.add(c.include);
                    }
                }
            }
            return set;
        }
    }

    /** Converts {@code --include} values by their labels. */
    static final class IncludeConverter implements CommandLine.ITypeConverter<IncludeChoice> {
        @Override
        public IncludeChoice convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (IncludeChoice c : IncludeChoice.values()) {
                if (c.label.equals(v)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("expected one of " + new IncludeCandidates() + " but was '" + value + "'");
        }
    }

    static final class IncludeCandidates implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(IncludeChoice.values()).map(c -> c.label).iterator();
        }

        @Override
        public String toString() {
            return String.join(", ", this);
        }
    }

    /** {@code --as}: what a file named on its own is, whatever its name and content say. */
    enum AsChoice {
        LOG("log", FileKind.LOG),
        INDEX("index", FileKind.INDEX),
        TIME_INDEX("timeindex", FileKind.TIME_INDEX),
        TXN_INDEX("txnindex", FileKind.TXN_INDEX),
        SNAPSHOT("snapshot", FileKind.SNAPSHOT),
        KRAFT_SNAPSHOT("kraft-snapshot", FileKind.KRAFT_SNAPSHOT),
        OFFSET_CHECKPOINT("offset-checkpoint", FileKind.OFFSET_CHECKPOINT),
        LEADER_EPOCH_CHECKPOINT("leader-epoch-checkpoint", FileKind.LEADER_EPOCH_CHECKPOINT),
        PARTITION_METADATA("partition-metadata", FileKind.PARTITION_METADATA),
        META_PROPERTIES("meta-properties", FileKind.META_PROPERTIES);

        final String label;
        final FileKind kind;

        AsChoice(String label, FileKind kind) {
            this.label = label;
            this.kind = kind;
        }

        static FileKind kind(AsChoice choice) {
            return choice == null ? null : choice.kind;
        }
    }

    /** Converts {@code --as} values by their labels. */
    static final class AsConverter implements CommandLine.ITypeConverter<AsChoice>, Iterable<String> {
        @Override
        public AsChoice convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (AsChoice c : AsChoice.values()) {
                if (c.label.equals(v)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("expected one of " + String.join(", ", this) + " but was '" + value + "'");
        }

        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(AsChoice.values()).map(c -> c.label).iterator();
        }
    }

    /** Lower-case completion candidates for {@code --key-format}/{@code --value-format}. */
    static final class ByteFormatCandidates implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("text", "hex", "base64").iterator();
        }
    }

    /** Lower-case completion candidates for {@code --min-severity}. */
    static final class SeverityCandidates implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("info", "warning", "error").iterator();
        }
    }
}
