package io.segscope.inspector;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the segscope command line in-process with captured stdout and stderr. */
public record Run(int exit, String out, String err) {
    public static Run of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            exit = Segscope.newCommandLine(o, e).execute(args);
        }
        return new Run(exit, out.toString(), err.toString());
    }
}
