package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.RemoteTransfer.Direction;
import io.gantry.staging.RemoteTransfer.Protocol;
import io.gantry.testing.SshTestHost;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Staging reaches only the hosts and ports an operator allows, checked again when it connects, and
 * a job cannot map ports from the error text: refused, "open but not SSH" and silent ports all read
 * "could not connect to HOST:PORT".
 */
class StagingHostPolicyTest {
  @TempDir Path jobDir;
  @TempDir Path remoteRoot;
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private StagingException fetch(ConnectionPolicy policy, int port) {
    TestCredentials credentials =
        new TestCredentials().login("risk", SshCredentials.password(Secret.of("s3cret")));
    RemoteTransfer t =
        new RemoteTransfer(
            1,
            Direction.TRANSMIT,
            Protocol.SCP,
            "127.0.0.1",
            port,
            "risk",
            "/data/x.bin",
            "x.bin",
            false);
    GatewayOptions options =
        GatewayOptions.defaults()
            .withKnownHosts(null, true)
            .withRetries(Duration.ofMillis(1500), 1, Duration.ZERO);
    try (StagingGateway gateway = new StagingGateway(credentials, options, policy)) {
      return assertThrows(
          StagingException.class,
          () ->
              gateway.stageIn(
                  new StageInPlan(List.of(t), List.of()), jobDir, StagingListener.NONE));
    }
  }

  private static ConnectionPolicy loopbackAllowed() {
    return ConnectionPolicy.of(false, List.of(), List.of("127.0.0.1"), List.of());
  }

  @Test
  void aLoopbackSshHostNotListedIsRefusedBeforeAnyConnection() throws Exception {
    SshTestHost host = SshTestHost.start(remoteRoot);
    open.add(host);
    host.addUser("risk", "s3cret");
    Files.createDirectories(remoteRoot.resolve("data"));
    Files.writeString(remoteRoot.resolve("data/x.bin"), "payload");
    StagingException e =
        fetch(ConnectionPolicy.of(false, List.of(), List.of(), List.of()), host.port());
    assertTrue(
        e.getMessage()
            .contains(
                "staging may not connect to 127.0.0.1:"
                    + host.port()
                    + ": it is a loopback or link-local address"),
        e.getMessage());
    assertTrue(Files.notExists(jobDir.resolve("x.bin")));
    // the same host, listed: the transfer goes through
    TestCredentials credentials =
        new TestCredentials().login("risk", SshCredentials.password(Secret.of("s3cret")));
    try (StagingGateway gateway =
        new StagingGateway(
            credentials,
            GatewayOptions.defaults().withKnownHosts(null, true),
            ConnectionPolicy.of(
                false, List.of(), List.of("127.0.0.1:" + host.port()), List.of()))) {
      gateway.stageIn(
          new StageInPlan(
              List.of(
                  new RemoteTransfer(
                      1,
                      Direction.TRANSMIT,
                      Protocol.SCP,
                      "127.0.0.1",
                      host.port(),
                      "risk",
                      "/data/x.bin",
                      "x.bin",
                      false)),
              List.of()),
          jobDir,
          StagingListener.NONE);
    }
    assertEquals("payload", Files.readString(jobDir.resolve("x.bin")));
  }

  @Test
  void refusedOpenButNotSshAndSilentPortsGiveTheSameMessage() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    int http = listener("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    int silent = listener(null);
    List<String> messages = new ArrayList<>();
    for (int port : List.of(closed, http, silent)) {
      messages.add(fetch(loopbackAllowed(), port).getMessage().replace(":" + port, ":PORT"));
    }
    assertEquals(1, messages.stream().distinct().count(), String.join("\n", messages));
    assertTrue(messages.get(0).endsWith("could not connect to 127.0.0.1:PORT"), messages.get(0));
  }

  /**
   * A TCP service on loopback that answers every connection with {@code reply}, or says nothing.
   */
  private int listener(String reply) throws IOException {
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    open.add(server);
    Thread t =
        new Thread(
            () -> {
              List<Socket> held = new ArrayList<>();
              try {
                while (true) {
                  Socket s = server.accept();
                  held.add(s);
                  if (reply != null) {
                    OutputStream out = s.getOutputStream();
                    out.write(reply.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    s.close();
                  }
                }
              } catch (IOException closedByTest) {
                held.forEach(
                    s -> {
                      try {
                        s.close();
                      } catch (IOException ignored) {
                        // closing at the end of the test
                      }
                    });
              }
            },
            "test-listener");
    t.setDaemon(true);
    t.start();
    return server.getLocalPort();
  }
}
