package io.gantry.staging.internal.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The writer's direct path for plain fields prints what Commons CSV's minimal quoting prints. */
class CsvRowWriterTest {
  private static final String PLAIN = "abcxyzABCXYZ0123456789-.:+_/";

  @Test
  void plainFieldsAreWrittenAsCommonsCsvWritesThem() throws Exception {
    List<String> fixed =
        List.of(
            "-5",
            "0",
            "1.5E-7",
            "+01:00",
            "2024-02-29T23:59:59.5",
            "a_b",
            "BOOK-7",
            "/x",
            ".5",
            ":",
            "Z",
            "9");
    assertRowsMatch(fixed);
    SplittableRandom rnd = new SplittableRandom(7);
    for (int n = 0; n < 2000; n++) {
      char[] value = new char[1 + rnd.nextInt(12)];
      for (int i = 0; i < value.length; i++) {
        value[i] = PLAIN.charAt(rnd.nextInt(PLAIN.length()));
      }
      assertRowsMatch(List.of(new String(value), new String(value)));
    }
  }

  @Test
  void anythingElseIsLeftToCommonsCsv() throws Exception {
    for (String v : List.of(" a", "a ", "a,b", "a\"b", "a\nb", "#1", "!x", "é", "a b")) {
      assertFalse(CsvRowWriter.isPlain(v), v);
    }
    assertTrue(CsvRowWriter.isPlain("2024-02-29T23:59:59.5+01:00"));
    assertRowsMatch(Arrays.asList(null, " a", "a,b", "x", null));
  }

  @Test
  void integersAreWrittenAsLongToStringWritesThem() throws Exception {
    long[] values = {0, 7, -7, 10, -10, 999, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
    ByteArrayOutputStream ours = new ByteArrayOutputStream();
    StringBuilder expected = new StringBuilder();
    try (CsvRowWriter w = new CsvRowWriter(ours)) {
      SplittableRandom rnd = new SplittableRandom(3);
      for (int n = 0; n < 20_000; n++) { // several buffers' worth
        long v = n < values.length ? values[n] : rnd.nextLong() >> rnd.nextInt(64);
        w.field(v);
        w.field((String) null);
        w.endRecord();
        expected.append(v).append(",\n");
      }
    }
    assertEquals(expected.toString(), ours.toString(StandardCharsets.UTF_8));
  }

  @Test
  void fieldsLongerThanTheBufferAndNonAsciiTextCrossItWhole() throws Exception {
    String longPlain = "x".repeat(70_000);
    String longQuoted = "a,\"b\"".repeat(30_000);
    List<String> row = Arrays.asList("1", longPlain, "ünïcödé € 漢字", longQuoted, "", null, "z");
    for (int i = 0; i < 3; i++) {
      assertRowsMatch(row);
    }
    // a lone surrogate becomes '?', as OutputStreamWriter writes it
    ByteArrayOutputStream ours = new ByteArrayOutputStream();
    try (CsvRowWriter w = new CsvRowWriter(ours)) {
      w.record(List.of("x\uD800y"));
    }
    assertEquals("x?y\n", ours.toString(StandardCharsets.UTF_8));
  }

  private static void assertRowsMatch(List<String> row) throws Exception {
    ByteArrayOutputStream ours = new ByteArrayOutputStream();
    try (CsvRowWriter w = new CsvRowWriter(ours)) {
      w.record(row);
    }
    StringWriter commons = new StringWriter();
    var format = CsvDialect.WRITE_MINIMAL.builder().get();
    var quoted = CsvDialect.WRITE_QUOTED.builder().get(); // the empty string, as "" (the dialect)
    boolean first = true;
    for (String v : row) {
      if (v == null) {
        if (!first) {
          commons.append(',');
        }
      } else {
        (v.isEmpty() ? quoted : format).print(v, commons, first);
      }
      first = false;
    }
    commons.append('\n');
    assertEquals(commons.toString(), ours.toString(StandardCharsets.UTF_8), row.toString());
  }
}
