package io.gantry.testing.server.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.Deflater;

/**
 * Class data sharing (the JDK's AppCDS, a dynamic archive) for the gantry-server JVMs a test JVM
 * starts. A test run starts some three hundred of them on a machine of two cores, each loading and
 * verifying the same ten thousand classes of CXF, Jetty, H2 and the server: measured on a quiet
 * machine, a server's start took 6.0 s of CPU and 4.5 s to listen without an archive, 4.5 s of CPU
 * and 3.0 s with one. On the loaded CI machine, that CPU is what every other test waits for.
 *
 * <p>The JDK archives classes from jars only, never from a directory: the test's class path (where
 * {@code target/classes} and {@code target/test-classes} are directories) is given to the children
 * with each directory packed into a jar of its own, once per test JVM. The first server started
 * writes the archive when it stops ({@code -XX:ArchiveClassesAtExit}); later JVMs use it ({@code
 * -XX:SharedArchiveFile}); until then, or if it cannot be written (a server killed with SIGKILL
 * writes none; the next one tries), they run without. An archive the JVM cannot use is ignored, as
 * the JDK does; the JDK's CDS log lines are off, as they would be printed on the server's standard
 * output, which the tests read. Everything lives in {@code
 * target/gantry-test-servers/shared-classes-PID} and goes when the test JVM ends.
 */
final class SharedClasses {
  private static final Object LOCK = new Object();

  /** CDS says nothing on standard output, where the tests read what the server prints. */
  private static final String QUIET = "-Xlog:cds*=off";

  private static Path directory;
  private static String classPath;

  /** Archives written, by the JVM options they were written with (they must match). */
  private static final Map<List<String>, Path> archives = new HashMap<>();

  /** Options whose archive a running JVM is writing. */
  private static final Set<List<String>> writing = new HashSet<>();

  private SharedClasses() {}

  /** How a child JVM with {@code jvmOptions} gets its classes: CDS options and class path. */
  record Launch(List<String> options, Path writes, List<String> key) {
    /** Call with the started process: an archive it writes at its end is kept for later JVMs. */
    @SuppressWarnings("FutureReturnValueIgnored") // written() ends without an exception
    void started(Process process) {
      if (writes != null) {
        process.onExit().thenRun(() -> written(key, writes));
      }
    }
  }

  /**
   * The options for a child JVM with {@code jvmOptions}; {@code mayWrite} (a server, which loads
   * the most classes before it stops) lets it write the archive when none is there yet.
   */
  static Launch launch(List<String> jvmOptions, boolean mayWrite) {
    synchronized (LOCK) {
      String path = classPath();
      List<String> options = new ArrayList<>(List.of(QUIET));
      Path archive = archives.get(jvmOptions);
      Path writes = null;
      if (archive != null) {
        options.add("-XX:SharedArchiveFile=" + archive);
      } else if (mayWrite && !recordsFlight(jvmOptions) && writing.add(jvmOptions)) {
        writes = directory.resolve("classes-" + archives.size() + "-" + writing.size() + ".jsa");
        options.add("-XX:ArchiveClassesAtExit=" + writes);
      }
      options.addAll(List.of("-cp", path));
      return new Launch(options, writes, jvmOptions);
    }
  }

  /**
   * A JVM that writes a class archive at its exit runs without Java Flight Recorder ("JFR will be
   * disabled during CDS dumping"): a server asked to record a profile (a benchmark's {@code
   * -XX:StartFlightRecording}) must not be the one that writes it.
   */
  private static boolean recordsFlight(List<String> jvmOptions) {
    return jvmOptions.stream().anyMatch(o -> o.startsWith("-XX:StartFlightRecording"));
  }

  private static void written(List<String> key, Path file) {
    synchronized (LOCK) {
      writing.remove(key);
      try {
        if (Files.isRegularFile(file) && Files.size(file) > 0) {
          Path ready = file.resolveSibling("ready-" + file.getFileName());
          Files.move(file, ready, StandardCopyOption.ATOMIC_MOVE);
          archives.put(key, ready);
        }
      } catch (IOException e) {
        // no archive: later JVMs start without one, as before
      }
    }
  }

  /** The test's class path with every directory in it packed into a jar (made once). */
  private static String classPath() {
    if (classPath != null) {
      return classPath;
    }
    try {
      Path logs = Files.createDirectories(Path.of("target", "gantry-test-servers"));
      directory =
          Files.createDirectories(
              logs.resolve("shared-classes-" + ProcessHandle.current().pid()).toAbsolutePath());
      Runtime.getRuntime().addShutdownHook(new Thread(SharedClasses::removeDirectory));
      List<String> entries = new ArrayList<>();
      int packed = 0;
      for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        Path path = Path.of(entry);
        if (Files.isDirectory(path)) {
          Path jar = directory.resolve(packed++ + "-" + path.getFileName() + ".jar");
          pack(path, jar);
          entries.add(jar.toString());
        } else {
          entries.add(entry);
        }
      }
      classPath = String.join(java.io.File.pathSeparator, entries);
      return classPath;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot pack the test's class path into jars", e);
    }
  }

  private static void pack(Path root, Path jar) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> tree = Files.walk(root)) {
      out.setLevel(Deflater.BEST_SPEED);
      for (Path path : tree.sorted().toList()) {
        if (path.equals(root)) {
          continue;
        }
        String name = root.relativize(path).toString().replace('\\', '/');
        if (Files.isDirectory(path)) {
          out.putNextEntry(new JarEntry(name + "/"));
        } else {
          out.putNextEntry(new JarEntry(name));
          Files.copy(path, out);
        }
        out.closeEntry();
      }
    }
  }

  private static void removeDirectory() {
    try (Stream<Path> tree = Files.walk(directory)) {
      for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // target/ is the build's to clean
    }
  }
}
