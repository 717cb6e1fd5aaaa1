package io.gantry.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One command as gantry-client sends it to the command agent: a 4-byte big-endian length, then
 * NUL-terminated strings: the protocol name {@value #PROTOCOL}, the working directory (absolute),
 * two flags ("1" or "0": standard input is a terminal, standard output is a terminal), the number
 * of arguments, the arguments, and the environment as NAME=VALUE entries to the end.
 */
record AgentRequest(
    Path workingDirectory,
    boolean inputIsTerminal,
    boolean outputIsTerminal,
    List<String> arguments,
    Map<String, String> environment) {
  static final String PROTOCOL = "gantry-agent/1";

  /** More than any command line and environment a shell can pass on (ARG_MAX is 2 MiB). */
  static final int MAX_BYTES = 4 << 20;

  static AgentRequest read(ReadableByteChannel channel) throws IOException {
    ByteBuffer length = readFully(channel, ByteBuffer.allocate(4));
    int size = length.getInt(0);
    if (size <= 0 || size > MAX_BYTES) {
      throw new IOException("a request of " + size + " bytes");
    }
    return parse(readFully(channel, ByteBuffer.allocate(size)).array());
  }

  static AgentRequest parse(byte[] bytes) throws IOException {
    if (bytes.length == 0 || bytes[bytes.length - 1] != 0) {
      throw new IOException("the request does not end with NUL");
    }
    String[] fields =
        new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8).split("\0", -1);
    if (fields.length < 5 || !PROTOCOL.equals(fields[0])) {
      throw new IOException("not a " + PROTOCOL + " request");
    }
    Path directory = Path.of(fields[1]);
    if (!directory.isAbsolute()) {
      throw new IOException("the working directory is not absolute");
    }
    int count;
    try {
      count = Integer.parseInt(fields[4]);
    } catch (NumberFormatException e) {
      throw new IOException("no argument count", e);
    }
    if (count < 0 || 5 + count > fields.length) {
      throw new IOException("an argument count of " + count);
    }
    List<String> arguments = List.of(Arrays.copyOfRange(fields, 5, 5 + count));
    Map<String, String> environment = new HashMap<>();
    for (String entry : List.of(fields).subList(5 + count, fields.length)) {
      int equals = entry.indexOf('=');
      if (equals > 0) {
        environment.putIfAbsent(entry.substring(0, equals), entry.substring(equals + 1));
      }
    }
    // the login file a relative GANTRY_CONFIG names is relative to where the user ran gantry
    String config = environment.get(LoginFile.VARIABLE);
    if (config != null && !config.isBlank() && !Path.of(config).isAbsolute()) {
      environment.put(LoginFile.VARIABLE, directory.resolve(config).toString());
    }
    return new AgentRequest(
        directory,
        "1".equals(fields[2]),
        "1".equals(fields[3]),
        arguments,
        Map.copyOf(environment));
  }

  private static ByteBuffer readFully(ReadableByteChannel channel, ByteBuffer buffer)
      throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new IOException("the client closed the connection mid-request");
      }
    }
    return buffer;
  }
}
