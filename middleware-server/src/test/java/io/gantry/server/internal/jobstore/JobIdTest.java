package io.gantry.server.internal.jobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobIdTest {
  @Test
  void aFreshIdIs32UrlAndFileNameSafeCharacters() {
    String id = JobId.random().value();
    assertEquals(32, id.length());
    assertTrue(id.matches("[a-z2-7]{32}"), id);
  }

  @Test
  void freshIdsDoNotRepeat() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      assertTrue(seen.add(JobId.random().value()));
    }
  }

  @Test
  void everyCharacterPositionVaries() {
    // 160 random bits spread over all 32 characters: no fixed prefix or padding
    Set<Character> first = new HashSet<>();
    Set<Character> last = new HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      String id = JobId.random().value();
      first.add(id.charAt(0));
      last.add(id.charAt(31));
    }
    assertEquals(32, first.size());
    assertEquals(32, last.size());
  }

  @Test
  void parsingAcceptsUpperCaseAndRejectsAnythingElse() {
    JobId id = JobId.random();
    assertEquals(id, JobId.parse(id.value().toUpperCase(java.util.Locale.ROOT)));
    assertThrows(IllegalArgumentException.class, () -> JobId.parse("abc"));
    assertThrows(
        IllegalArgumentException.class, () -> JobId.parse("../../etc/passwd/aaaaaaaaaaaaaaaaa"));
    assertThrows(
        IllegalArgumentException.class, () -> JobId.parse("0000000000000000000000000000000a"));
    assertThrows(IllegalArgumentException.class, () -> JobId.parse(null));
  }
}
