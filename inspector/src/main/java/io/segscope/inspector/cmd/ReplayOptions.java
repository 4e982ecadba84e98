package io.segscope.inspector.cmd;

import io.segscope.format.replay.AsOf;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The options {@code offsets} and {@code groups} share: which groups, and the replay's cut
 * ({@code --as-of-time}, {@code --as-of-offset}). A picocli mixin.
 */
final class ReplayOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    @Option(names = "--group", paramLabel = "GROUP", description = "Only this group (exact id). Repeatable.")
    List<String> groups;

    @Option(names = "--group-regex", paramLabel = "REGEX",
            description = "Only groups whose id this Java regex matches (anywhere; anchor with ^ and $). Repeatable.")
    List<String> groupRegexes;

    @Option(names = "--as-of-time", paramLabel = "TIME", converter = TimeConverter.class,
            description = "Replay each partition up to this time (ISO-8601 or epoch ms): its batches up to the first one written later.")
    Long asOfTime;

    @Option(names = "--as-of-offset", paramLabel = "N",
            description = "Replay the records of each partition below this log offset (exclusive).")
    Long asOfOffset;

    /** The cut the options give; a negative offset is a usage error. */
    AsOf asOf() {
        if (asOfOffset != null && asOfOffset < 0) {
            throw new CommandLine.ParameterException(mixee.commandLine(), "--as-of-offset must be 0 or more, not " + asOfOffset);
        }
        return new AsOf(asOfTime == null ? Long.MAX_VALUE : asOfTime, asOfOffset == null ? Long.MAX_VALUE : asOfOffset);
    }
}
