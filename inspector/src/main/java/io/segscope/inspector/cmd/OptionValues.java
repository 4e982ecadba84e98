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
    enum IncludeChoice implements Labelled {
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

        @Override
        public String label() {
            return label;
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

    /** An option value people write as a label ({@code delete-dirs}), not as a Java constant name. */
    interface Labelled {
        String label();
    }

    /**
     * Converts labels to constants of {@code E} (any case) and offers the labels to completion;
     * picocli reports a bad value as a usage error naming the labels.
     */
    abstract static class LabelConverter<E extends Enum<E> & Labelled> implements CommandLine.ITypeConverter<E>, Iterable<String> {
        private final Class<E> type;

        LabelConverter(Class<E> type) {
            this.type = type;
        }

        @Override
        public E convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (E c : type.getEnumConstants()) {
                if (c.label().equals(v)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("expected one of " + String.join(", ", this) + " but was '" + value + "'");
        }

        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(type.getEnumConstants()).map(Labelled::label).iterator();
        }
    }

    static final class IncludeConverter extends LabelConverter<IncludeChoice> {
        IncludeConverter() {
            super(IncludeChoice.class);
        }
    }

    /** {@code --as}: what a file named on its own is, whatever its name and content say. */
    enum AsChoice implements Labelled {
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

        @Override
        public String label() {
            return label;
        }

        static FileKind kind(AsChoice choice) {
            return choice == null ? null : choice.kind;
        }
    }

    static final class AsConverter extends LabelConverter<AsChoice> {
        AsConverter() {
            super(AsChoice.class);
        }
    }

    /** {@code --as} and the decompression cap: how dump and verify read the files they are given. */
    static final class ReadOptions {
        @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
        picocli.CommandLine.Model.CommandSpec mixee;

        int maxDecompressed = io.segscope.format.record.ReaderOptions.DEFAULT_MAX_DECOMPRESSED;

        @picocli.CommandLine.Option(names = "--max-decompressed", paramLabel = "BYTES", defaultValue = "134217728",
                description = "Largest size one compressed batch may inflate to (default 128 MiB).")
        void maxDecompressed(int bytes) {
            if (bytes < 1) {
                throw new CommandLine.ParameterException(mixee.commandLine(),
                        "--max-decompressed must be at least 1 byte, not " + bytes);
            }
            maxDecompressed = bytes;
        }

        @picocli.CommandLine.Option(names = "--as", paramLabel = "FILE_KIND", converter = AsConverter.class,
                completionCandidates = AsConverter.class,
                description = "What each file named on its own is, whatever its name: log, index, timeindex, txnindex, snapshot, kraft-snapshot, offset-checkpoint, leader-epoch-checkpoint, partition-metadata, meta-properties. Without it: by name, else by content. PATH - is standard input (read as log unless --as says otherwise).")
        AsChoice as;

        /** The kind given with {@code --as}, or null. */
        FileKind as() {
            return AsChoice.kind(as);
        }

        io.segscope.format.record.ReaderOptions readerOptions() {
            return io.segscope.format.record.ReaderOptions.defaults().withMaxDecompressedBytes(maxDecompressed);
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
