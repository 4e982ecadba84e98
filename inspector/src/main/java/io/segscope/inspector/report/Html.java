package io.segscope.inspector.report;

/**
 * The one escaping helper of the report: every text and attribute value of the page goes through
 * {@link #text}, and the JSON inside its {@code <script>} through {@link #scriptJson}.
 */
public final class Html {
    private Html() {
    }

    /**
     * Text or a quoted attribute value: {@code & < > " '} as character references; characters an
     * HTML5 parser reports as errors (C0 and C1 controls but tab and line feed (a carriage return would become a line feed),
     * noncharacters, lone surrogates) shown as {@code \\uXXXX}.
     */
    public static String text(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (rep == null && bad(s, i, c)) {
                rep = String.format("\\u%04x", (int) c);
            }
            if (rep == null && Character.isHighSurrogate(c)) {
                // a valid pair: both kept
                if (sb != null) {
                    sb.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (rep != null && sb == null) {
                sb = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (sb != null) {
                if (rep != null) {
                    sb.append(rep);
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static boolean bad(String s, int i, char c) {
        if (c < 0x20) {
            return c != '\t' && c != '\n';
        }
        if (c >= 0x7f && c <= 0x9f) {
            return true;
        }
        if (c >= 0xfdd0 && c <= 0xfdef || c == 0xfffe || c == 0xffff) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                return true;
            }
            int cp = Character.toCodePoint(c, s.charAt(i + 1));
            return (cp & 0xfffe) == 0xfffe;
        }
        return Character.isLowSurrogate(c);
    }

    /**
     * JSON made safe inside {@code <script type="application/json">}: {@code <}, {@code >},
     * {@code &}, U+2028 and U+2029 as JSON escapes, so that no {@code </script>} or comment opener
     * can appear (the JSON value is unchanged).
     */
    public static String scriptJson(String json) {
        StringBuilder sb = new StringBuilder(json.length() + 16);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> sb.append("\\u003c");
                case '>' -> sb.append("\\u003e");
                case '&' -> sb.append("\\u0026");
                case '\u2028' -> sb.append("\\u2028");
                case '\u2029' -> sb.append("\\u2029");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
