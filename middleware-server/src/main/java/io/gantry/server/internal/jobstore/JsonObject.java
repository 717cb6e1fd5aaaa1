package io.gantry.server.internal.jobstore;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A flat JSON object written in insertion order: the data of an outbox event, and the envelope the
 * notifications wrap it in. Strings are escaped as RFC 8259 section 7 requires (quote, backslash,
 * and the control characters U+0000 to U+001F); numbers and booleans are written as they are.
 */
public final class JsonObject {
  private final Map<String, String> members = new LinkedHashMap<>();

  /** Adds a string member; a null value is written as JSON null. */
  public JsonObject put(String name, String value) {
    members.put(name, value == null ? "null" : quote(value));
    return this;
  }

  public JsonObject put(String name, long value) {
    members.put(name, Long.toString(value));
    return this;
  }

  /** Adds a member whose value is already JSON text (a nested object). */
  public JsonObject putJson(String name, String json) {
    members.put(name, json);
    return this;
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("{");
    members.forEach(
        (name, value) -> {
          if (out.length() > 1) {
            out.append(',');
          }
          out.append(quote(name)).append(':').append(value);
        });
    return out.append('}').toString();
  }

  /** {@code text} as a JSON string literal. */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
