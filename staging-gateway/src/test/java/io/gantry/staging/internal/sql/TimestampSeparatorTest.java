package io.gantry.staging.internal.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TimestampSeparatorTest {
  static String fix(String row, int... columns) {
    byte[] b = row.getBytes(StandardCharsets.UTF_8);
    TimestampSeparator.fix(b, b.length, columns);
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void changesOnlyTheSeparatorOfTheNamedColumns() {
    assertEquals(
        "1,2024-02-29T23:59:59.5,x y,2000-01-01T00:00:00\n",
        fix("1,2024-02-29 23:59:59.5,x y,2000-01-01 00:00:00\n", 1, 3));
  }

  @Test
  void stepsOverQuotedFieldsWithCommasQuotesAndLineBreaks() {
    assertEquals(
        "\"a, \"\"b\"\"\nc d\",,2024-01-01T12:00:00,\"\"\n",
        fix("\"a, \"\"b\"\"\nc d\",,2024-01-01 12:00:00,\"\"\n", 2));
  }

  @Test
  void leavesNullTimestampsAlone() {
    assertEquals("1,,x\n", fix("1,,x\n", 1));
    assertEquals("1,\n", fix("1,\n", 1));
  }
}
