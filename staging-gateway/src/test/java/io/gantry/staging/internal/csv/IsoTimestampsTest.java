package io.gantry.staging.internal.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoTimestampsTest {
  @Test
  void writesWhatTheIsoFormattersWrite() {
    Random r = new Random(5);
    int[] nanos = {0, 500_000_000, 123_000_000, 123_456_000, 123_456_789, 1_000, 1, 10};
    for (int i = 0; i < 2000; i++) {
      LocalDateTime t =
          LocalDateTime.of(
              r.nextInt(12000) - 1000,
              1 + r.nextInt(12),
              1 + r.nextInt(28),
              r.nextInt(24),
              r.nextInt(60),
              r.nextInt(60),
              i < nanos.length ? nanos[i] : r.nextInt(1_000_000_000));
      assertEquals(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t), IsoTimestamps.local(t));
      for (ZoneOffset zone :
          new ZoneOffset[] {
            ZoneOffset.UTC, ZoneOffset.ofHoursMinutes(5, 30), ZoneOffset.ofTotalSeconds(-3723)
          }) {
        OffsetDateTime o = t.atOffset(zone);
        assertEquals(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(o), IsoTimestamps.offset(o));
      }
    }
  }

  @Test
  void datesAreWrittenAsLocalDateWritesThem() {
    for (int year = -1200; year <= 12_000; year += 7) {
      LocalDate d = LocalDate.of(year, 1 + Math.floorMod(year, 12), 1 + Math.floorMod(year, 28));
      assertEquals(d.toString(), IsoTimestamps.appendDate(new StringBuilder(), d).toString());
    }
  }
}
