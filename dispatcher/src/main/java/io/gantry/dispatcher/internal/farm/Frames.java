package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmTask;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The dispatcher's side of the launcher wire protocol (docs/task-farms.md, version 1): frames are a
 * 4-byte big-endian length and a payload whose first byte is the type; strings are a 4-byte length
 * and UTF-8 bytes.
 */
public final class Frames {
  public static final int VERSION = 1;
  public static final byte HELLO = 1;
  public static final byte WELCOME = 2;
  public static final byte REFUSE = 3;
  public static final byte REQUEST = 4;
  public static final byte TASK = 5;
  public static final byte DONE = 6;

  /**
   * The largest frame a launcher may send: a REQUEST with the largest output and a long host name.
   * Anything larger is a broken or hostile peer.
   */
  public static final int MAX_INBOUND = 128 * 1024;

  private Frames() {}

  public static ByteBuffer welcome(int outputLimit) {
    return frame(WELCOME, b -> b.putInt(VERSION).putInt(outputLimit), 8);
  }

  public static ByteBuffer refuse(String reason) {
    byte[] r = reason.getBytes(StandardCharsets.UTF_8);
    return frame(REFUSE, b -> b.putInt(r.length).put(r), 4 + r.length);
  }

  public static ByteBuffer done() {
    return frame(DONE, b -> {}, 0);
  }

  /** A TASK frame; {@code wallMillis} 0 means no limit. */
  public static ByteBuffer task(FarmTask t, int attempt, long wallMillis) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    putLong(out, t.id());
    putInt(out, attempt);
    putLong(out, wallMillis);
    putString(out, t.executable());
    putInt(out, t.arguments().size());
    t.arguments().forEach(a -> putString(out, a));
    putInt(out, t.environment().size());
    for (Map.Entry<String, String> e : t.environment().entrySet()) {
      putString(out, e.getKey() + "=" + e.getValue());
    }
    byte[] payload = out.toByteArray();
    return frame(TASK, b -> b.put(payload), payload.length);
  }

  private interface Body {
    void write(ByteBuffer b);
  }

  private static ByteBuffer frame(byte type, Body body, int bodyLength) {
    ByteBuffer b = ByteBuffer.allocate(5 + bodyLength);
    b.putInt(1 + bodyLength).put(type);
    body.write(b);
    return b.flip();
  }

  private static void putInt(ByteArrayOutputStream out, int v) {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }

  private static void putLong(ByteArrayOutputStream out, long v) {
    putInt(out, (int) (v >>> 32));
    putInt(out, (int) v);
  }

  private static void putString(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putInt(out, b.length);
    out.write(b, 0, b.length);
  }

  /** Reads a string from a payload, refusing lengths past its end. */
  public static String string(ByteBuffer payload) {
    int n = payload.getInt();
    if (n < 0 || n > payload.remaining()) {
      throw new java.nio.BufferUnderflowException();
    }
    byte[] b = new byte[n];
    payload.get(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Reads a string's raw bytes (the secret is compared as bytes, in constant time). */
  public static byte[] bytes(ByteBuffer payload) {
    int n = payload.getInt();
    if (n < 0 || n > payload.remaining()) {
      throw new java.nio.BufferUnderflowException();
    }
    byte[] b = new byte[n];
    payload.get(b);
    return b;
  }
}
