package io.gantry.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Job descriptions the tests submit: the shipped examples and small POSIX jobs. */
final class TestJobs {
  static final Path EXAMPLES = Path.of("../jsdl-schema/examples").toAbsolutePath().normalize();
  static final Path HELLO_MPI = EXAMPLES.resolve("hello-mpi.jsdl");

  private TestJobs() {}

  /** A one-process POSIX job running {@code executable args...}, written into {@code dir}. */
  static Path posix(Path dir, String name, String executable, String... args) throws IOException {
    String arguments = Stream.of(args)
        .map(a -> "        <jsdl-posix:Argument>" + xmlText(a) + "</jsdl-posix:Argument>")
        .collect(Collectors.joining("\n"));
    return Files.writeString(dir.resolve(name + ".jsdl"), """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                            xmlns:jsdl-posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix">
          <jsdl:JobDescription>
            <jsdl:JobIdentification><jsdl:JobName>%s</jsdl:JobName></jsdl:JobIdentification>
            <jsdl:Application>
              <jsdl-posix:POSIXApplication>
                <jsdl-posix:Executable>%s</jsdl-posix:Executable>
        %s
                <jsdl-posix:Output>stdout.txt</jsdl-posix:Output>
                <jsdl-posix:Error>stderr.txt</jsdl-posix:Error>
                <jsdl-posix:WallTimeLimit>120</jsdl-posix:WallTimeLimit>
              </jsdl-posix:POSIXApplication>
            </jsdl:Application>
          </jsdl:JobDescription>
        </jsdl:JobDefinition>
        """.formatted(name, executable, arguments));
  }

  /**
   * The VaR example's five SQL extracts from the server's demo market, with /bin/echo in place
   * of mcvar (a node program built separately) and without the steps that need an SSH host
   * (the hostfile) or mcvar's results (the stage-out).
   */
  static Path varJobStagingOnly(Path dir) throws IOException {
    String var = Files.readString(EXAMPLES.resolve("var-job.jsdl"))
        .replace("<gx:Executable>mcvar</gx:Executable>", "<gx:Executable>/bin/echo</gx:Executable>")
        .replace("<gx:HostFile>hosts.txt</gx:HostFile>", "")
        .replaceAll("(?s)<gx:SCPDataStaging>.*?</gx:SCPDataStaging>", "")
        .replaceAll("(?s)<gx:PostDataStaging>.*?</gx:PostDataStaging>", "");
    return Files.writeString(dir.resolve("var-staging-only.jsdl"), var);
  }

  private static String xmlText(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** hello-mpi asking for more processes than the test server has slots: valid offline, refused by the server. */
  static Path tooBigForTheServer(Path dir) throws IOException {
    String hello = Files.readString(HELLO_MPI)
        .replace("<gx:NumberOfProcesses>2</gx:NumberOfProcesses>", "<gx:NumberOfProcesses>64</gx:NumberOfProcesses>");
    return Files.writeString(dir.resolve("too-big.jsdl"), hello);
  }
}
