package io.gantry.server.internal.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A file name of a configured file system lands under its directory, and nowhere else. */
class FileSystemRootsTest {
  private final FileSystemRoots roots =
      new FileSystemRoots(Map.of("SCRATCH", Path.of("/srv/scratch")));

  @Test
  void aRelativeNameLandsUnderItsFileSystem() {
    assertEquals(Path.of("/srv/scratch/run1/in.txt"), roots.resolve("SCRATCH", "run1/./in.txt"));
  }

  @Test
  void namesThatLeaveTheRootAreRefused() {
    for (String escape : new String[] {"../etc/passwd", "/etc/passwd", "a/../../x", ".", ""}) {
      assertThrows(IllegalArgumentException.class, () -> roots.resolve("SCRATCH", escape), escape);
    }
  }

  @Test
  void anUnknownFileSystemIsRefusedListingTheConfiguredOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> roots.resolve("HOME", "a"));
    assertEquals(
        "file system HOME is not one this server provides; it provides SCRATCH", e.getMessage());
  }
}
