package io.gantry.testing.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

/**
 * The main class of a server a test starts: runs {@code args[0]}'s {@code main} with the other
 * arguments, and exits (running its shutdown hooks, as SIGTERM would) when standard input ends. The
 * test JVM holds the other end of that pipe, so a test JVM that dies (killed by surefire's timeout,
 * or a test that forgot to close its server) never leaves a server running behind it.
 */
public final class ParentWatch {
  private ParentWatch() {}

  public static void main(String[] args) throws Throwable {
    Thread watch = new Thread(ParentWatch::exitAtEndOfInput, "gantry-test-parent-watch");
    watch.setDaemon(true);
    watch.start();
    try {
      Class.forName(args[0])
          .getMethod("main", String[].class)
          .invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static void exitAtEndOfInput() {
    InputStream in = System.in;
    try {
      while (in.read() >= 0) {
        // the parent never writes; anything read is ignored
      }
    } catch (IOException e) {
      // a broken pipe means the same as its end: the parent is gone
    }
    System.exit(0);
  }
}
