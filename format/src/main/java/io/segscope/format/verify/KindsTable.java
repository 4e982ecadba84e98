package io.segscope.format.verify;

import io.segscope.format.error.Violation;

import java.util.ArrayList;
import java.util.List;

/**
 * The table of finding kinds, made from {@link Violation} for each place that shows it: the
 * README (markdown), the package doc (HTML) and {@code verify --help} (plain text wrapped to a
 * width). One source, so the three cannot disagree.
 */
public final class KindsTable {
    private KindsTable() {
    }

    /** The kinds {@code verify} reports, in table order. */
    public static List<Violation> verifyKinds() {
        List<Violation> out = new ArrayList<>();
        for (Violation v : Violation.values()) {
            if (v.reportedByVerify()) {
                out.add(v);
            }
        }
        return out;
    }

    /** A markdown table: kind, severity, file, meaning. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder("| kind | severity | file | meaning |\n|---|---|---|---|\n");
        for (Violation v : verifyKinds()) {
            sb.append("| `").append(v.kind()).append("` | ").append(v.severity()).append(" | ")
                    .append(v.files().replace("*", "\\*")).append(" | ").append(v.description().replace("|", "\\|"))
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** The same table as HTML rows for a javadoc comment, each line starting with {@code " * "}. */
    public static String javadoc() {
        StringBuilder sb = new StringBuilder(" * <table>\n * <caption>Finding kinds</caption>\n"
                + " * <tr><th>kind</th><th>severity</th><th>file</th><th>meaning</th></tr>\n");
        for (Violation v : verifyKinds()) {
            sb.append(" * <tr><td>{@code ").append(v.kind()).append("}</td><td>").append(v.severity()).append("</td><td>")
                    .append(html(v.files())).append("</td><td>").append(html(v.description())).append("</td></tr>\n");
        }
        return sb.append(" * </table>\n").toString();
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*/", "*&#47;");
    }

    /**
     * Plain text for {@code --help}: per kind a line {@code kind (severity)}, then its description
     * wrapped to {@code width} columns and indented.
     */
    public static List<String> helpLines(int width) {
        List<String> lines = new ArrayList<>();
        for (Violation v : verifyKinds()) {
            lines.add("  " + v.kind() + " (" + v.severity() + "; " + v.files() + ")");
            wrap(v.description(), "      ", width, lines);
        }
        return lines;
    }

    private static void wrap(String text, String indent, int width, List<String> out) {
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" ")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
                line.append(indent);
            }
            if (line.length() > indent.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > indent.length()) {
            out.add(line.toString());
        }
    }
}
