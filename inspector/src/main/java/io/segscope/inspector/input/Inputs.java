package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileListing;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns the PATHs a person gives into the files to read, through the library's
 * {@link LogScanner}: a segment or side file, a partition dir, a whole broker log dir, several of
 * them, or an archive holding any of these (read in place). Partitions come sorted by topic and
 * partition, segments by base offset.
 */
public final class Inputs implements AutoCloseable {
    private final List<PathArgument> archives = new ArrayList<>();
    private final FileListing listing;
    private final LogScanner scanner;

    private Inputs(Set<Include> include, Set<FileKind> kinds) {
        this.listing = new FileListing(kinds);
        this.scanner = new LogScanner(include);
    }

    /**
     * @param include transient files and dirs to read besides the live ones
     * @param kinds the kinds of file wanted from directories (a file named on the command line is
     *     always taken)
     */
    public static Inputs resolve(List<Path> paths, Set<Include> include, Set<FileKind> kinds) {
        Inputs inputs = new Inputs(include, kinds);
        try {
            for (Path p : paths) {
                inputs.add(p);
            }
        } catch (RuntimeException e) {
            inputs.close();
            throw e;
        }
        return inputs;
    }

    public List<LogFile> files() {
        return listing.files();
    }

    /** The broker log dirs found (for commands that read their checkpoints). */
    public List<LogDir> logDirs() {
        return listing.logDirs();
    }

    /** Names that look like Kafka files but do not parse, orphan index files, and the like. */
    public List<FormatException> problems() {
        return listing.problems();
    }

    /**
     * Archives cut short, as errors naming the archive (or the partial entry) and where it ends;
     * their complete entries are among {@link #files()}.
     */
    public List<FormatException> truncations() {
        List<FormatException> out = new ArrayList<>();
        for (PathArgument a : archives) {
            a.tree().truncation().ifPresent(t -> out.add(FormatException.at(Violation.IO_ERROR, t.file(), t.position())
                    .note(t.message()).build()));
        }
        return out;
    }

    private void add(Path path) {
        PathArgument arg = PathArgument.open(path);
        boolean found;
        if (arg.tree() != null) {
            archives.add(arg);
            found = scanner.scan(arg.entry(), listing);
            if (!found && arg.tree().truncation().isPresent()) {
                return; // reported by truncations(): the data may be what was cut
            }
        } else {
            found = scanner.scan(path, listing);
        }
        if (!found) {
            throw FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                    .note("no Kafka segment, partition dir or log dir found there").build();
        }
    }

    @Override
    public void close() {
        for (PathArgument a : archives) {
            a.close();
        }
    }
}
