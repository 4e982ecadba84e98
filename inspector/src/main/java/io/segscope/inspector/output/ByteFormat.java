package io.segscope.inspector.output;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/**
 * How keys, values and header values of non-coordinator topics are shown: {@code text} when
 * they are printable UTF-8 (else base64), or always {@code hex}, or always {@code base64}.
 */
public enum ByteFormat {
    TEXT, HEX, BASE64;

    /** The encoding a rendering used: {@code utf8}, {@code hex} or {@code base64}. */
    public record Rendered(String text, String encoding) {
    }

    public Rendered render(ByteBuffer buf, int offset, int length) {
        byte[] bytes = new byte[length];
        buf.get(offset, bytes);
        return render(bytes);
    }

    public Rendered render(byte[] bytes) {
        switch (this) {
            case HEX:
                return new Rendered(HexFormat.of().formatHex(bytes), "hex");
            case BASE64:
                return new Rendered(Base64.getEncoder().encodeToString(bytes), "base64");
            default:
                String s = printableUtf8(bytes);
                return s != null ? new Rendered(s, "utf8") : new Rendered(Base64.getEncoder().encodeToString(bytes), "base64");
        }
    }

    /** The bytes as a string when they are valid UTF-8 with no control characters but tab, CR, LF; else null. */
    static String printableUtf8(byte[] bytes) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        String s;
        try {
            s = d.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
                return null;
            }
        }
        return s;
    }

    /** Kafka's own rendering (StringDecoder, Utils.utf8): UTF-8 with replacement characters. */
    public static String kafkaUtf8(ByteBuffer buf, int offset, int length) {
        byte[] bytes = new byte[length];
        buf.get(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
