package io.gantry.dispatcher.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A launcher's HELLO as the dispatcher reads it and shows its host name. */
class HelloTest {
  private static Hello hello(String host) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Frames.putInt(out, Frames.VERSION);
    Frames.putString(out, "s".repeat(64));
    Frames.putString(out, host);
    Frames.putInt(out, -1);
    return Hello.read(ByteBuffer.wrap(out.toByteArray()));
  }

  @Test
  void everyFieldIsReadThePidUnsigned() {
    Hello said = hello("node-1");
    assertEquals(Frames.VERSION, said.version());
    assertEquals(64, said.secret().length);
    assertEquals("node-1", said.host());
    assertEquals(4_294_967_295L, said.pid());
  }

  /**
   * Found by WireFramesFuzzTest's property: \p{Cntrl} is ASCII only, C1 got through to the logs.
   */
  @Test
  void aHostNameIsShownWithoutControlCharactersC0OrC1() {
    assertEquals("node?[31m???1", hello("node\u001b[31m\u0085\u009b\u007f1").shownHost());
  }

  @Test
  void aLongHostNameIsCutAt255CharactersNeverInsideACharacter() {
    assertEquals("h".repeat(255), hello("h".repeat(300)).shownHost());
    String emoji = "\uD83D\uDE00"; // one character, two chars
    assertEquals("h".repeat(254), hello("h".repeat(254) + emoji + "tail").shownHost());
  }

  @Test
  void aHelloCutShortIsRefused() {
    ByteBuffer cut = ByteBuffer.allocate(8).putInt(Frames.VERSION).putInt(64).flip();
    assertThrows(BufferUnderflowException.class, () -> Hello.read(cut));
  }
}
