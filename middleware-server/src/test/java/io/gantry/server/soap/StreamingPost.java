package io.gantry.server.soap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A POST over a plain socket whose body is generated while it is sent (never held in memory), as
 * large as wanted, with a Content-Length or chunked. A second thread sends while this one reads the
 * answer, as a careful client does; the answer and how many body bytes the server let in before
 * answering are what a test looks at.
 */
public final class StreamingPost {
  /**
   * The answer: status, headers and body as text, and the body bytes sent until the answer came.
   */
  public record Answer(int status, String head, String body, long bytesSentBeforeAnswer) {}

  private StreamingPost() {}

  /**
   * Posts {@code prefix} and then filler up to {@code length} bytes in all.
   *
   * @param chunked send the body chunked instead of with a Content-Length
   * @param headers further header lines, each ending in CRLF (e.g. Authorization)
   */
  public static Answer post(
      int port, String path, String headers, byte[] prefix, long length, boolean chunked)
      throws Exception {
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 10_000);
      socket.setSoTimeout(60_000);
      OutputStream out = socket.getOutputStream();
      String head =
          "POST "
              + path
              + " HTTP/1.1\r\nHost: 127.0.0.1:"
              + port
              + "\r\n"
              + "Content-Type: text/xml; charset=UTF-8\r\nSOAPAction: \"\"\r\n"
              + headers
              + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + length + "\r\n")
              + "\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      AtomicLong sent = new AtomicLong();
      Thread sender = new Thread(() -> send(out, prefix, length, chunked, sent), "streaming-post");
      sender.setDaemon(true);
      sender.start();
      InputStream in = socket.getInputStream();
      String statusAndHeaders = readHead(in);
      long sentBeforeAnswer = sent.get();
      String body = readBody(in, statusAndHeaders);
      socket.close();
      sender.join(10_000);
      int status = Integer.parseInt(statusAndHeaders.substring(9, 12));
      return new Answer(status, statusAndHeaders, body, sentBeforeAnswer);
    }
  }

  private static void send(
      OutputStream out, byte[] prefix, long length, boolean chunked, AtomicLong sent) {
    byte[] filler = new byte[64 * 1024];
    Arrays.fill(filler, (byte) ' ');
    try {
      write(out, prefix, prefix.length, chunked);
      sent.addAndGet(prefix.length);
      while (sent.get() < length) {
        int n = (int) Math.min(filler.length, length - sent.get());
        write(out, filler, n, chunked);
        sent.addAndGet(n);
      }
      if (chunked) {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.flush();
    } catch (IOException e) {
      // the server closed the connection: what it let in is counted
    }
  }

  private static void write(OutputStream out, byte[] bytes, int n, boolean chunked)
      throws IOException {
    if (chunked) {
      out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }
    out.write(bytes, 0, n);
    if (chunked) {
      out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    for (int c = in.read(); c >= 0; c = in.read()) {
      head.write(c);
      matched =
          (c == '\r' && matched % 2 == 0) || (c == '\n' && matched % 2 == 1) ? matched + 1 : 0;
      if (matched == 4) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
    throw new IOException("the connection ended before the answer's headers: " + head);
  }

  private static String readBody(InputStream in, String head) throws IOException {
    String lower = head.toLowerCase(Locale.ROOT);
    int at = lower.indexOf("content-length:");
    if (at >= 0) {
      int end = lower.indexOf('\r', at);
      int length = Integer.parseInt(head.substring(at + 15, end).strip());
      return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
    if (lower.contains("transfer-encoding: chunked")) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      while (true) {
        String size = line(in);
        int n = Integer.parseInt(size.split(";")[0].strip(), 16);
        if (n == 0) {
          return body.toString(StandardCharsets.UTF_8);
        }
        body.write(in.readNBytes(n));
        line(in);
      }
    }
    // neither: the body ends with the connection
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        body.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // a reset after the answer: what arrived is the answer
    }
    return body.toString(StandardCharsets.UTF_8);
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder s = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
      if (c != '\r') {
        s.append((char) c);
      }
    }
    return s.toString();
  }
}
