package io.gantry.dispatcher.internal.wire;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The launcher wire protocol's common part (docs/task-farms.md, version 2), spoken by farms and
 * sessions alike: frames are a 4-byte big-endian length and a payload whose first byte is the type;
 * strings are a 4-byte length and UTF-8 bytes. The C side is node-programs/launcher/gfl_wire.c.
 */
public final class Frames {
  /**
   * The protocol version: 2 added the launcher's HEARTBEAT and the interval in WELCOME. A HELLO of
   * another version is refused (the launcher exits 2 saying why); gantry-launcher likewise treats a
   * WELCOME of another version as outside the protocol (exit 3). Launchers and the server come from
   * one release, so there is no mixed mode: a version-1 launcher would send no heartbeat and be
   * taken for lost.
   */
  public static final int VERSION = 2;

  public static final byte HELLO = 1;
  public static final byte WELCOME = 2;
  public static final byte REFUSE = 3;
  public static final byte REQUEST = 4;
  public static final byte DONE = 6;

  /** Launcher to dispatcher, no fields: sent every heartbeat interval, whatever else it does. */
  public static final byte HEARTBEAT = 11;

  /**
   * The largest frame a connection may send before its HELLO was accepted. gantry-launcher's HELLO
   * payload is 17 bytes plus the secret (64) and its host name (at most 255): 336 at most. Anything
   * larger before authentication is not a launcher, and is closed without being read.
   */
  public static final int MAX_HELLO = 512;

  private Frames() {}

  /**
   * @param outputLimit bytes of a task's output kept (0 for a session)
   * @param heartbeat how often the launcher sends HEARTBEAT ({@link
   *     io.gantry.dispatcher.LauncherHeartbeat})
   */
  public static ByteBuffer welcome(int outputLimit, java.time.Duration heartbeat) {
    ByteBuffer b = start(WELCOME, 12);
    b.putInt(VERSION).putInt(outputLimit).putInt((int) heartbeat.toMillis());
    return b.flip();
  }

  public static ByteBuffer refuse(String reason) {
    byte[] r = reason.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = start(REFUSE, 4 + r.length);
    b.putInt(r.length).put(r);
    return b.flip();
  }

  /**
   * Whether an accepted launcher's frame is a HEARTBEAT, which only shows it is alive and goes to
   * no protocol; throws for a HEARTBEAT that carries fields.
   */
  public static boolean heartbeat(ByteBuffer payload) throws Connection.ProtocolException {
    if (payload.get(payload.position()) != HEARTBEAT) {
      return false;
    }
    if (payload.remaining() != 1) {
      throw new Connection.ProtocolException("a HEARTBEAT of " + payload.remaining() + " bytes");
    }
    return true;
  }

  public static ByteBuffer done() {
    return start(DONE, 0).flip();
  }

  /** A frame of {@code type} whose body is {@code body}. */
  public static ByteBuffer frame(byte type, byte[] body) {
    return start(type, body.length).put(body).flip();
  }

  /** A buffer for a frame of {@code type} with its length and type written; the body goes next. */
  public static ByteBuffer start(byte type, int bodyLength) {
    ByteBuffer b = ByteBuffer.allocate(5 + bodyLength);
    return b.putInt(1 + bodyLength).put(type);
  }

  public static void putInt(ByteArrayOutputStream out, int v) {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }

  public static void putLong(ByteArrayOutputStream out, long v) {
    putInt(out, (int) (v >>> 32));
    putInt(out, (int) v);
  }

  public static void putString(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putInt(out, b.length);
    out.write(b, 0, b.length);
  }

  /** Reads a string from a payload, refusing lengths past its end. */
  public static String string(ByteBuffer payload) {
    return new String(bytes(payload), StandardCharsets.UTF_8);
  }

  /** Reads a string's raw bytes (the secret is compared as bytes, in constant time). */
  public static byte[] bytes(ByteBuffer payload) {
    int n = payload.getInt();
    if (n < 0 || n > payload.remaining()) {
      throw new BufferUnderflowException();
    }
    byte[] b = new byte[n];
    payload.get(b);
    return b;
  }
}
