package io.segscope.inspector.cmd;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Aligned text columns: a header and rows, each column padded to its widest cell (counted in code
 * points), separated by two spaces; the last column is not padded. {@link #cell} quotes a value
 * that would be ambiguous bare.
 */
final class Table {
    private final List<String[]> rows = new ArrayList<>();

    Table(String... header) {
        rows.add(header);
    }

    void add(String... row) {
        rows.add(row);
    }

    int size() {
        return rows.size() - 1;
    }

    /**
     * A value as a cell: JSON-quoted ({@link TextQuote}) when it is empty or holds a space, a
     * comma, a quote or a control character; {@code -} for null.
     */
    static String cell(String s) {
        if (s == null) {
            return "-";
        }
        if (s.isEmpty()) {
            return "\"\"";
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= ' ' || c == ',' || c == '"' || c == 0x7f || Character.isWhitespace(c) || Character.isISOControl(c)
                    || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.LINE_SEPARATOR
                    || Character.getType(c) == Character.PARAGRAPH_SEPARATOR || Character.getType(c) == Character.SPACE_SEPARATOR) {
                return TextQuote.quote(s);
            }
        }
        return s;
    }

    void print(PrintWriter out) {
        print(out, rows.get(0), rows.size() - 1, i -> rows.get(i + 1));
    }

    /**
     * Prints a header and {@code count} rows made on demand by {@code row} (called twice per row:
     * once for the widths, once to print), so that a long table is never held as cells.
     */
    static void print(PrintWriter out, String[] header, int count, java.util.function.IntFunction<String[]> row) {
        int cols = header.length;
        int[] width = new int[cols];
        for (int k = -1; k < count; k++) {
            String[] r = k < 0 ? header : row.apply(k);
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], r[i].codePointCount(0, r[i].length()));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int k = -1; k < count; k++) {
            String[] r = k < 0 ? header : row.apply(k);
            sb.setLength(0);
            for (int i = 0; i < cols; i++) {
                sb.append(r[i]);
                if (i < cols - 1) {
                    sb.append(" ".repeat(width[i] - r[i].codePointCount(0, r[i].length()) + 2));
                }
            }
            out.print(sb.append('\n'));
        }
    }
}
