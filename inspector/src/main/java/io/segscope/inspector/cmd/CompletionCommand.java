package io.segscope.inspector.cmd;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code segscope completion}: a bash/zsh completion script, e.g. {@code source <(segscope completion)}. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a bash/zsh completion script for segscope.", "Use: source <(./segscope completion)"})
public final class CompletionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String script = AutoComplete.bash("segscope", spec.root().commandLine());
        spec.commandLine().getOut().print(script);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
