package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Users' drafts on disk: names, confinement, limits. */
class WizardDraftStoreTest {
  @TempDir Path dir;

  @Test
  void aDraftIsSavedListedLoadedAndDeleted() throws Exception {
    DraftStore store = new DraftStore(dir.resolve("drafts"));
    store.save("alice", "var-daily_1.0", "<x/>");
    assertEquals(
        List.of("var-daily_1.0"),
        store.list("alice").stream().map(DraftStore.Draft::name).toList());
    assertEquals("<x/>", store.load("alice", "var-daily_1.0").orElseThrow());
    assertTrue(store.list("bob").isEmpty(), "drafts are the user's own");
    assertTrue(store.load("bob", "var-daily_1.0").isEmpty());
    assertTrue(store.delete("alice", "var-daily_1.0"));
    assertTrue(store.list("alice").isEmpty());
  }

  @Test
  void badNamesAreRefused() {
    DraftStore store = new DraftStore(dir);
    for (String name :
        new String[] {
          "",
          "../x",
          "..",
          "a/b",
          "a\\b",
          ".hidden",
          "-x",
          "a b",
          "x".repeat(65),
          "a..b",
          "ümlaut",
          "a\u0000b"
        }) {
      assertFalse(DraftStore.validName(name), name);
      assertThrows(IllegalArgumentException.class, () -> store.save("alice", name, "<x/>"), name);
    }
  }

  @Test
  void strangeUserNamesStayInsideTheStore() throws Exception {
    Path root = dir.resolve("drafts");
    DraftStore store = new DraftStore(root);
    store.save("../../etc", "d", "<x/>");
    store.save("..", "d", "<x/>");
    try (var files = Files.walk(dir)) {
      assertTrue(files.filter(Files::isRegularFile).allMatch(f -> f.normalize().startsWith(root)));
    }
    assertEquals(1, store.list("../../etc").size());
    assertTrue(store.list("alice").isEmpty());
  }

  @Test
  void sizeAndCountAreLimited() throws Exception {
    DraftStore store = new DraftStore(dir);
    assertThrows(
        IllegalArgumentException.class,
        () -> store.save("bob", "big", "x".repeat(DraftStore.MAX_BYTES + 1)));
    for (int i = 0; i < DraftStore.MAX_DRAFTS; i++) {
      store.save("bob", "d" + i, "<x/>");
    }
    assertThrows(IllegalArgumentException.class, () -> store.save("bob", "one-more", "<x/>"));
    store.save("bob", "d0", "<y/>"); // replacing one is still fine
  }
}
