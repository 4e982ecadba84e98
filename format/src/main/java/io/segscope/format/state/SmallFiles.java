package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.SourceCopy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reading a whole small side file, and splitting text into lines the way {@code BufferedReader} does. */
final class SmallFiles {
    /** No side file is anywhere near this; a larger one is refused rather than copied. */
    static final int MAX_BYTES = 256 << 20;

    private SmallFiles() {
    }

    /**
     * The whole content of {@code source}, copied (these files are small). Works on a stream too,
     * reading forward in chunks no larger than the stream's window.
     */
    static byte[] readAll(ByteSource source) {
        return SourceCopy.readAll(source, MAX_BYTES, "a side file");
    }

    /** One text line: its text and the byte position of its first byte. */
    record Line(String text, long position) {
    }

    /**
     * Splits UTF-8 text into lines as {@code BufferedReader.readLine} does: a line ends at
     * {@code \n}, {@code \r} or {@code \r\n}; a last line without a terminator counts; an empty
     * input has no lines. Bytes that are not UTF-8 are an error, as they are for Kafka's strict
     * {@code Files.newBufferedReader}.
     */
    static List<Line> lines(byte[] bytes, String file, Violation onBadText) {
        List<Line> lines = new ArrayList<>();
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        int start = 0;
        int i = 0;
        while (i < bytes.length) {
            byte b = bytes[i];
            if (b == '\n' || b == '\r') {
                lines.add(new Line(decode(decoder, bytes, start, i, file, onBadText), start));
                i += (b == '\r' && i + 1 < bytes.length && bytes[i + 1] == '\n') ? 2 : 1;
                start = i;
            } else {
                i++;
            }
        }
        if (start < bytes.length) {
            lines.add(new Line(decode(decoder, bytes, start, bytes.length, file, onBadText), start));
        }
        return lines;
    }

    private static String decode(CharsetDecoder decoder, byte[] bytes, int from, int to, String file, Violation v) {
        try {
            CharBuffer chars = decoder.reset().decode(ByteBuffer.wrap(bytes, from, to - from));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw FormatException.at(v, file, from).field("line").expected("UTF-8 text")
                    .actual("bytes that are not UTF-8").build(e);
        }
    }
}
