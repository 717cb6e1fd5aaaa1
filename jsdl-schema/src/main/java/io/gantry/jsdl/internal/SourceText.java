package io.gantry.jsdl.internal;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The decoded document text, to turn a SAX locator position into the start of the tag.
 *
 * <p>SAX reports where a start tag ends (just after its {@code >}); users look for where it begins.
 * Scanning back to the nearest {@code <} is exact because {@code <} cannot occur inside a tag
 * (attribute values must escape it).
 */
final class SourceText {
  private final String text;
  private final int[] lineStarts;

  SourceText(byte[] bytes, String encoding) {
    this.text = new String(bytes, charset(encoding));
    this.lineStarts = lineStarts(text);
  }

  private static Charset charset(String encoding) {
    try {
      return encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
    } catch (IllegalArgumentException e) {
      return StandardCharsets.UTF_8;
    }
  }

  /** Line starts as XML counts lines: CR LF, CR and LF each end one line. */
  private static int[] lineStarts(String text) {
    int[] starts = new int[16];
    int count = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean crlf = c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n';
      if (crlf) {
        i++;
      }
      if (c == '\n' || c == '\r') {
        if (count == starts.length) {
          starts = Arrays.copyOf(starts, count * 2);
        }
        starts[count++] = i + 1;
      }
    }
    return Arrays.copyOf(starts, count);
  }

  /** The position of the {@code <} that opens the tag ending just before (line, column). */
  SourcePosition tagStart(int line, int column) {
    if (line < 1 || line > lineStarts.length || column < 1) {
      return new SourcePosition(Math.max(line, 0), Math.max(column, 0));
    }
    int index = Math.min(lineStarts[line - 1] + column - 2, text.length() - 1);
    while (index >= 0 && text.charAt(index) != '<') {
      index--;
    }
    if (index < 0) {
      return new SourcePosition(line, column);
    }
    int found = Arrays.binarySearch(lineStarts, index);
    int lineIndex = found >= 0 ? found : -found - 2;
    return new SourcePosition(lineIndex + 1, index - lineStarts[lineIndex] + 1);
  }
}
