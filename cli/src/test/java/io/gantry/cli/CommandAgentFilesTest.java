package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command agent writes its lock, pid and log files beside its socket and never through a link
 * planted in their place: the agent refuses to start, and the link's target is left as it was.
 */
class CommandAgentFilesTest {
  private static final String VICTIM = "the target's own content\n";

  @TempDir Path dir;

  private Path socket() {
    return dir.resolve("agent.sock");
  }

  /** A link at {@code name} beside the socket, to a file that must stay untouched. */
  private Path plantLink(String suffix) throws Exception {
    Path target = Files.writeString(dir.resolve("victim" + suffix), VICTIM);
    Files.createSymbolicLink(dir.resolve("agent.sock" + suffix), target);
    return target;
  }

  private void assertRefusedAndUntouched(Path target, Path log) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    AgentFiles.LinkRefused refused =
        assertThrows(
            AgentFiles.LinkRefused.class,
            () -> CommandAgent.run(socket(), Duration.ofSeconds(1), log));
    assertTrue(refused.getMessage().contains("is a link"), refused.getMessage());
    assertEquals(VICTIM, Files.readString(target));
    assertFalse(Files.exists(socket()), "the agent did not serve");
    // the output of this JVM stayed where it was (a refused log is never made the output)
    assertSame(out, System.out);
    assertSame(err, System.err);
  }

  @Test
  void aLinkInPlaceOfTheLockFileIsRefused() throws Exception {
    assertRefusedAndUntouched(plantLink(".lock"), null);
  }

  @Test
  void aLinkInPlaceOfThePidFileIsRefused() throws Exception {
    assertRefusedAndUntouched(plantLink(".pid"), null);
  }

  @Test
  void aLinkInPlaceOfTheLogIsRefused() throws Exception {
    Path target = plantLink(".log");
    assertRefusedAndUntouched(target, dir.resolve("agent.sock.log"));
  }

  @Test
  void aLinkToAFileThatIsNotThereYetIsRefusedToo() throws Exception {
    Path absent = dir.resolve("would-be-created");
    Files.createSymbolicLink(dir.resolve("agent.sock.lock"), absent);
    assertThrows(
        AgentFiles.LinkRefused.class,
        () -> CommandAgent.run(socket(), Duration.ofSeconds(1), null));
    assertFalse(Files.exists(absent), "nothing was created through the link");
  }
}
