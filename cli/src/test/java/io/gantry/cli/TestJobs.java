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
    String arguments =
        Stream.of(args)
            .map(a -> "        <jsdl-posix:Argument>" + xmlText(a) + "</jsdl-posix:Argument>")
            .collect(Collectors.joining("\n"));
    return Files.writeString(
        dir.resolve(name + ".jsdl"),
        """
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
        """
            .formatted(name, executable, arguments));
  }

  /**
   * The VaR example's five SQL extracts from the server's demo market, with /bin/echo in place of
   * mcvar (a node program built separately) and without the steps that need an SSH host (the
   * hostfile) or mcvar's results (the stage-out).
   */
  static Path varJobStagingOnly(Path dir) throws IOException {
    String var =
        Files.readString(EXAMPLES.resolve("var-job.jsdl"))
            .replace(
                "<gx:Executable>mcvar</gx:Executable>", "<gx:Executable>/bin/echo</gx:Executable>")
            .replace("<gx:HostFile>hosts.txt</gx:HostFile>", "")
            .replaceAll("(?s)<gx:SCPDataStaging>.*?</gx:SCPDataStaging>", "")
            .replaceAll("(?s)<gx:PostDataStaging>.*?</gx:PostDataStaging>", "");
    return Files.writeString(dir.resolve("var-staging-only.jsdl"), var);
  }

  /**
   * {@link #varJobStagingOnly} with every extract cached for four hours (the sample itself caches
   * nothing: its book and closes can change within the day), for the stage-in cache's commands.
   */
  static Path varJobStagingOnlyCached(Path dir) throws IOException {
    String var =
        Files.readString(varJobStagingOnly(dir))
            .replace(
                "</gx:SQLQueryDataStaging>",
                "<gx:CacheValidity>PT4H</gx:CacheValidity></gx:SQLQueryDataStaging>");
    return Files.writeString(dir.resolve("var-staging-only-cached.jsdl"), var);
  }

  /**
   * A job whose stage-out commits its first group (a P&L bin into the demo's var_pnl_distribution,
   * from a plain CSV) and fails in its second (a table that is not there).
   */
  static Path stageOutFailingInGroupTwo(Path dir) throws IOException {
    String script =
        "mkdir -p results; printf 'run_id,bin,lower,upper,count\\n%s,0,-1,0,5\\n' \"$GANTRY_JOB_ID\""
            + " > results/pnl_distribution.csv";
    return Files.writeString(
        dir.resolve("half-out.jsdl"),
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                            xmlns:jsdl-posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"
                            xmlns:gx="urn:gantry:jsdl:ext:1">
          <jsdl:JobDescription>
            <jsdl:JobIdentification><jsdl:JobName>half-out</jsdl:JobName></jsdl:JobIdentification>
            <jsdl:Application>
              <jsdl-posix:POSIXApplication>
                <jsdl-posix:Executable>/bin/sh</jsdl-posix:Executable>
                <jsdl-posix:Argument>-c</jsdl-posix:Argument>
                <jsdl-posix:Argument>%s</jsdl-posix:Argument>
                <jsdl-posix:WallTimeLimit>120</jsdl-posix:WallTimeLimit>
              </jsdl-posix:POSIXApplication>
            </jsdl:Application>
            <gx:PostDataStaging>
              <gx:SQLUpdateDataStaging>
                <gx:DataSourceRef>demo-market</gx:DataSourceRef>
                <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
                <gx:SQLStatement>INSERT INTO var_pnl_distribution (run_id, bin, lower, upper, count) VALUES (?, ?, ?, ?, ?)</gx:SQLStatement>
                <gx:SQLInputFileName>results/pnl_distribution.csv</gx:SQLInputFileName>
              </gx:SQLUpdateDataStaging>
              <gx:SQLUpdateDataStaging>
                <gx:DataSourceRef>demo-market</gx:DataSourceRef>
                <gx:ExecutionOrderGroup>2</gx:ExecutionOrderGroup>
                <gx:SQLStatement>INSERT INTO var_no_such_table (run_id, bin, lower, upper, count) VALUES (?, ?, ?, ?, ?)</gx:SQLStatement>
                <gx:SQLInputFileName>results/pnl_distribution.csv</gx:SQLInputFileName>
              </gx:SQLUpdateDataStaging>
            </gx:PostDataStaging>
          </jsdl:JobDescription>
        </jsdl:JobDefinition>
        """
            .formatted(xmlText(script)));
  }

  private static String xmlText(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * hello-mpi asking for more processes than the test server has slots: valid offline, refused by
   * the server.
   */
  static Path tooBigForTheServer(Path dir) throws IOException {
    String hello =
        Files.readString(HELLO_MPI)
            .replace(
                "<gx:NumberOfProcesses>2</gx:NumberOfProcesses>",
                "<gx:NumberOfProcesses>64</gx:NumberOfProcesses>");
    return Files.writeString(dir.resolve("too-big.jsdl"), hello);
  }
}
