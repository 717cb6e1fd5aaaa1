package io.gantry.server.internal.schedules;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.server.internal.service.InvalidArgumentException;
import java.time.Instant;
import java.util.Optional;

/**
 * Fuzz test of schedule expressions (docs/reliability.md): any cron text and time zone a user
 * submits gives a schedule or an InvalidArgumentException naming the field, nothing else, and a
 * schedule's next time is always strictly later. Without JAZZER_FUZZ the kept inputs
 * (src/test/resources/io/gantry/server/internal/schedules/CronScheduleFuzzTestInputs/schedule/) run
 * once.
 */
class CronScheduleFuzzTest {
  private static final Instant START = Instant.parse("2026-03-29T00:30:00Z"); // a DST change

  @FuzzTest(maxDuration = "30s")
  void schedule(FuzzedDataProvider data) {
    String zone = data.consumeString(40);
    String cron = data.consumeRemainingAsString();
    CronSchedule schedule;
    try {
      schedule = CronSchedule.of(cron, zone);
    } catch (InvalidArgumentException refused) {
      return; // what a bad expression or zone gets
    }
    Instant t = START;
    for (int i = 0; i < 5; i++) {
      Optional<Instant> next = schedule.next(t);
      if (next.isEmpty()) {
        return;
      }
      assertTrue(next.get().isAfter(t), () -> cron + " in " + zone + " went back in time");
      t = next.get();
    }
    schedule.due(START, START.plusSeconds(90L * 24 * 3600));
  }
}
