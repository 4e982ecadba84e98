package io.segscope.inspector.cmd;

import io.segscope.inspector.Run;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The completion script offers the values of every enumerated option. Run in bash for real (the
 * script's completion function with COMP_WORDS set as the shell sets them); zsh loads the same
 * functions through bashcompinit, which the script sets up itself.
 */
class CompletionCommandTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "dump | --files | log index timeindex txnindex snapshot all",
        "dump | --as | log index timeindex txnindex snapshot kraft-snapshot offset-checkpoint leader-epoch-checkpoint partition-metadata meta-properties",
        "verify | --as | log index timeindex txnindex snapshot kraft-snapshot offset-checkpoint leader-epoch-checkpoint partition-metadata meta-properties",
        "dump | --include | deleted cleaned swap delete-dirs future-dirs stray-dirs all",
        "dump | --key-format | text hex base64",
        "dump | --value-format | text hex base64",
        "dump | --format | text kafka jsonl",
        "dump | --decoder | auto offsets transactions share metadata remote none",
        "verify | --min-severity | info warning error",
        "verify | --format | text jsonl",
        "locate | --format | text jsonl",
        "offsets | --format | table jsonl csv",
        "groups | --format | table jsonl",
        "history | --format | table jsonl"})
    void enumeratedOptionsCompleteTheirValues(String command, String option, String values, @TempDir Path dir)
            throws IOException, InterruptedException {
        Run r = Run.of("completion");
        assertThat(r.exit()).isZero();
        String script = r.out();
        assertThat(script).contains("ZSH_VERSION").contains("bashcompinit");
        Path file = dir.resolve("segscope-completion.sh");
        Files.writeString(file, script, StandardCharsets.UTF_8);
        if (!new File("/bin/bash").canExecute()) {
            assertThat(script).contains("\"" + values.replace(" ", "\" \"") + "\"");
            return;
        }
        String probe = "source " + file + " 2>/dev/null; COMP_WORDS=(segscope " + command + " " + option + " \"\");"
                + " COMP_CWORD=3; _complete_segscope 2>/dev/null; echo \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder("/bin/bash", "-c", probe).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).isZero();
        assertThat(out).isEqualTo(values);
        if (new File("/usr/bin/zsh").canExecute()) {
            // zsh runs the same functions through bashcompinit, whose wrapper sets ksharrays
            String zsh = "autoload -U +X compinit && compinit -u; autoload -U +X bashcompinit && bashcompinit; "
                    + probe.replace("COMP_WORDS=", "setopt ksharrays; COMP_WORDS=");
            Process z = new ProcessBuilder("/usr/bin/zsh", "-c", zsh).redirectErrorStream(true).start();
            String zout = new String(z.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            z.waitFor();
            assertThat(zout.lines().reduce((a, b) -> b).orElse("")).as("zsh").isEqualTo(values);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Offset, OffsetCommit", "TopicR, TopicRecord", "COMM, COMMIT"})
    void typeNamesComplete(String prefix, String expected, @TempDir Path dir) throws IOException, InterruptedException {
        if (!new File("/bin/bash").canExecute()) {
            return;
        }
        Path file = dir.resolve("c.sh");
        Files.writeString(file, Run.of("completion").out(), StandardCharsets.UTF_8);
        String probe = "source " + file + " 2>/dev/null; COMP_WORDS=(segscope dump --type " + prefix + ");"
                + " COMP_CWORD=3; _complete_segscope 2>/dev/null; echo \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder("/bin/bash", "-c", probe).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).isZero();
        assertThat(out.split(" ")).contains(expected);
    }
}
