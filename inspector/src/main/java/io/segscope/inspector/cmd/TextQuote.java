package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/** JSON-style quoting for names in text output, so commas, tabs and newlines stay unambiguous. */
final class TextQuote {
    private TextQuote() {
    }

    static String quote(String s) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }
}
