package io.gantry.server.soap;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.Await;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Predicate;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.xml.sax.InputSource;

/**
 * JSDL documents for the jobs the HTTP tests run: small POSIX and mpirun programs from /bin, with
 * SQL stage-in and stage-out against a named data source. Written as text, as a user writes a job
 * file, so what travels is what a user would send.
 */
public final class TestJobs {
  static final String JSDL = "http://schemas.ggf.org/jsdl/2005/11/jsdl";
  static final String POSIX = "http://schemas.ggf.org/jsdl/2005/11/jsdl-posix";
  static final String GANTRY = "urn:gantry:jsdl:ext:1";

  private final String name;
  private String application = "";
  private final List<String> preStaging = new ArrayList<>();
  private final List<String> postStaging = new ArrayList<>();
  private final List<String> dependencies = new ArrayList<>();
  private String queue;
  private String project;
  private final List<String> dataStaging = new ArrayList<>();

  private TestJobs(String name) {
    this.name = name;
  }

  public static TestJobs job(String name) {
    return new TestJobs(name);
  }

  /** A POSIX job: {@code /bin/sh -c script}, stopped after {@code wallTimeSeconds}. */
  public TestJobs shell(String script, int wallTimeSeconds) {
    return posix(wallTimeSeconds, "/bin/sh", "-c", script);
  }

  public TestJobs posix(int wallTimeSeconds, String executable, String... arguments) {
    StringBuilder app =
        new StringBuilder("<posix:POSIXApplication><posix:Executable>")
            .append(escape(executable))
            .append("</posix:Executable>");
    for (String a : arguments) {
      app.append("<posix:Argument>").append(escape(a)).append("</posix:Argument>");
    }
    app.append("<posix:Output>stdout.txt</posix:Output><posix:Error>stderr.txt</posix:Error>")
        .append("<posix:WallTimeLimit>")
        .append(wallTimeSeconds)
        .append("</posix:WallTimeLimit>")
        .append("</posix:POSIXApplication>");
    application = app.toString();
    return this;
  }

  /** An MPI job started by mpirun with {@code processes} ranks. */
  public TestJobs mpirun(
      int processes, int wallTimeSeconds, String executable, String... arguments) {
    StringBuilder app =
        new StringBuilder("<gx:MpirunApplication><gx:Executable>")
            .append(escape(executable))
            .append("</gx:Executable>");
    for (String a : arguments) {
      app.append("<gx:Argument>").append(escape(a)).append("</gx:Argument>");
    }
    app.append("<gx:NumberOfProcesses>")
        .append(processes)
        .append("</gx:NumberOfProcesses>")
        .append("<gx:WallTimeLimit>")
        .append(wallTimeSeconds)
        .append("</gx:WallTimeLimit>")
        .append("</gx:MpirunApplication>");
    application = app.toString();
    return this;
  }

  /** Stage-in: the query's result becomes {@code file} (CSV with a header row). */
  public TestJobs sqlStageIn(String dataSource, int group, String select, String file) {
    preStaging.add(
        "<gx:SQLQueryDataStaging><gx:DataSourceRef>"
            + dataSource
            + "</gx:DataSourceRef>"
            + "<gx:ExecutionOrderGroup>"
            + group
            + "</gx:ExecutionOrderGroup>"
            + "<gx:SQLStatement>"
            + escape(select)
            + "</gx:SQLStatement>"
            + "<gx:SQLOutputFileName>"
            + file
            + "</gx:SQLOutputFileName>"
            + "<gx:SQLOutputFileCreationFlag>overwrite</gx:SQLOutputFileCreationFlag>"
            + "</gx:SQLQueryDataStaging>");
    return this;
  }

  /** Stage-out: each row of {@code file} (after its header) binds the statement. */
  public TestJobs sqlStageOut(String dataSource, String statement, String file) {
    return sqlStageOut(dataSource, 1, statement, file);
  }

  /** The same, in ExecutionOrderGroup {@code group}. */
  public TestJobs sqlStageOut(String dataSource, int group, String statement, String file) {
    postStaging.add(
        "<gx:SQLUpdateDataStaging><gx:DataSourceRef>"
            + dataSource
            + "</gx:DataSourceRef>"
            + "<gx:ExecutionOrderGroup>"
            + group
            + "</gx:ExecutionOrderGroup>"
            + "<gx:SQLStatement>"
            + escape(statement)
            + "</gx:SQLStatement>"
            + "<gx:SQLInputFileName>"
            + file
            + "</gx:SQLInputFileName>"
            + "</gx:SQLUpdateDataStaging>");
    return this;
  }

  /** A standard {@code jsdl:DataStaging} that stages {@code fileName} in from {@code source}. */
  public TestJobs stageIn(String fileName, String source) {
    return dataStaging(
        "<jsdl:DataStaging><jsdl:FileName>"
            + escape(fileName)
            + "</jsdl:FileName><jsdl:CreationFlag>overwrite</jsdl:CreationFlag>"
            + "<jsdl:Source><jsdl:URI>"
            + escape(source)
            + "</jsdl:URI></jsdl:Source></jsdl:DataStaging>");
  }

  /** A standard {@code jsdl:DataStaging} element as written. */
  public TestJobs dataStaging(String element) {
    dataStaging.add(element);
    return this;
  }

  /** {@code gx:After}: start only after job {@code id} SUCCEEDED. */
  public TestJobs after(String id) {
    dependencies.add("<gx:After>" + id + "</gx:After>");
    return this;
  }

  /** {@code gx:AfterAny}: start only after job {@code id} ended, whatever the outcome. */
  public TestJobs afterAny(String id) {
    dependencies.add("<gx:AfterAny>" + id + "</gx:AfterAny>");
    return this;
  }

  /**
   * {@code gx:AfterStart}: start once job {@code id}'s program has started, streaming its files
   * (call after every {@link #after} and {@link #afterAny}: the schema's order).
   */
  public TestJobs afterStart(String id) {
    dependencies.add("<gx:AfterStart>" + id + "</gx:AfterStart>");
    return this;
  }

  /** {@code gx:Queue}: the priority class the job waits in. */
  public TestJobs queue(String priorityClass) {
    this.queue = priorityClass;
    return this;
  }

  /** {@code jsdl:JobProject}: the project the job is charged to. */
  public TestJobs project(String name) {
    this.project = name;
    return this;
  }

  /** {@code gx:Hold}: submitted held, until releaseJob (added after every After/AfterAny). */
  public TestJobs held() {
    dependencies.add("HOLD");
    return this;
  }

  /** An scp stage-in that carries an encrypted password in the job description itself. */
  public TestJobs scpStageInWithPassword(String encryptedPassword) {
    preStaging.add(
        "<gx:SCPDataStaging><gx:ArrangingOrder>1</gx:ArrangingOrder>"
            + "<gx:Direction>transmit</gx:Direction><gx:RemoteHostName>127.0.0.1</gx:RemoteHostName>"
            + "<gx:RemotePort>9</gx:RemotePort><gx:RemoteUserId>risk</gx:RemoteUserId>"
            + "<gx:RemotePassword>"
            + encryptedPassword
            + "</gx:RemotePassword>"
            + "<gx:SourceFileName>/srv/data/prices.csv</gx:SourceFileName>"
            + "<gx:TargetFileName>prices.csv</gx:TargetFileName></gx:SCPDataStaging>");
    return this;
  }

  /**
   * The destination of {@link #scpStageInWithPassword}'s transfer, as an encrypted password is
   * bound to it.
   */
  public static final String SCP_PASSWORD_DESTINATION = "risk@127.0.0.1:9";

  /**
   * A password value of the right form (RSA-OAEP-256-v2 ciphertext of a 3072-bit key: 384 bytes,
   * bound to {@code user} and {@link #SCP_PASSWORD_DESTINATION}) that no server's key decrypts.
   */
  public static String syntacticallyValidEncryptedPassword(String user) {
    byte[] ciphertext = new byte[384];
    for (int i = 0; i < ciphertext.length; i++) {
      ciphertext[i] = (byte) (i * 31 + 7);
    }
    return io.gantry.jsdl.EncryptedSecret.format(
        io.gantry.jsdl.SecretBinding.of(user, SCP_PASSWORD_DESTINATION), ciphertext);
  }

  public String xml() {
    StringBuilder doc =
        new StringBuilder()
            .append("<jsdl:JobDefinition xmlns:jsdl=\"")
            .append(JSDL)
            .append("\" xmlns:posix=\"")
            .append(POSIX)
            .append("\" xmlns:gx=\"")
            .append(GANTRY)
            .append("\"><jsdl:JobDescription>")
            .append("<jsdl:JobIdentification><jsdl:JobName>")
            .append(escape(name))
            .append("</jsdl:JobName>")
            .append(
                project == null ? "" : "<jsdl:JobProject>" + escape(project) + "</jsdl:JobProject>")
            .append("</jsdl:JobIdentification>")
            .append("<jsdl:Application>")
            .append(application)
            .append("</jsdl:Application>");
    dataStaging.forEach(doc::append);
    if (!preStaging.isEmpty()) {
      doc.append("<gx:PreDataStaging>")
          .append(String.join("", preStaging))
          .append("</gx:PreDataStaging>");
    }
    if (!postStaging.isEmpty()) {
      doc.append("<gx:PostDataStaging>")
          .append(String.join("", postStaging))
          .append("</gx:PostDataStaging>");
    }
    if (!dependencies.isEmpty()) {
      doc.append("<gx:Dependencies>");
      dependencies.stream().filter(d -> !d.equals("HOLD")).forEach(doc::append);
      if (dependencies.contains("HOLD")) {
        doc.append("<gx:Hold>yes</gx:Hold>");
      }
      doc.append("</gx:Dependencies>");
    }
    if (queue != null) {
      doc.append("<gx:Queue>").append(escape(queue)).append("</gx:Queue>");
    }
    return doc.append("</jsdl:JobDescription></jsdl:JobDefinition>").toString();
  }

  /**
   * The document as a task farm: the TaskFarm element (may be empty) at the end of the
   * JobDescription and the Sweep (may be empty) after it, with the sweep namespaces declared.
   */
  public String farmXml(String taskFarm, String sweep) {
    return xml()
        .replaceFirst(
            "<jsdl:JobDefinition ",
            "<jsdl:JobDefinition xmlns:sweep=\"http://schemas.ogf.org/jsdl/2009/03/sweep\""
                + " xmlns:sweepfunc=\"http://schemas.ogf.org/jsdl/2009/03/sweep/functions\" ")
        .replace(
            "</jsdl:JobDescription></jsdl:JobDefinition>",
            taskFarm + "</jsdl:JobDescription>" + sweep + "</jsdl:JobDefinition>");
  }

  /** XPath of the POSIXApplication's {@code n}th Argument (from 1), for a sweep's Match. */
  public static String posixArgument(int n) {
    return "/jsdl:JobDefinition/jsdl:JobDescription/jsdl:Application/posix:POSIXApplication"
        + "/posix:Argument["
        + n
        + "]";
  }

  /** A sweep Assignment writing {@code function}'s values into what {@code match} selects. */
  public static String sweepAssignment(String match, String function) {
    return "<sweep:Assignment><sweep:DocumentNode><sweep:Match>"
        + match
        + "</sweep:Match></sweep:DocumentNode>"
        + function
        + "</sweep:Assignment>";
  }

  /** A sweep function of these values, in order. */
  public static String sweepValues(String... values) {
    StringBuilder b = new StringBuilder("<sweepfunc:Values>");
    for (String v : values) {
      b.append("<sweepfunc:Value>").append(escape(v)).append("</sweepfunc:Value>");
    }
    return b.append("</sweepfunc:Values>").toString();
  }

  /** The document as the CXF client sends it: the JobDefinition element itself. */
  public JobDocument document() {
    return documentOf(xml());
  }

  public static JobDocument documentOf(String xml) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      return new JobDocument(
          f.newDocumentBuilder()
              .parse(new InputSource(new StringReader(xml)))
              .getDocumentElement());
    } catch (Exception e) {
      throw new IllegalArgumentException("test job is not XML: " + e.getMessage(), e);
    }
  }

  /** Polls the job's status until it is final; fails the test after {@code timeout} (scaled). */
  public static JobStatusInfo awaitFinal(JobManagement client, String jobId, Duration timeout) {
    return await(client, jobId, timeout, s -> isFinal(s.state), "a final state");
  }

  /**
   * Polls the job's status until {@code condition} holds; fails the test after {@code timeout}
   * (scaled).
   */
  public static JobStatusInfo await(
      JobManagement client,
      String jobId,
      Duration timeout,
      Predicate<JobStatusInfo> condition,
      String what) {
    return Await.value(
        "job " + jobId + " to reach " + what,
        timeout,
        () -> client.getJobStatus(jobId),
        condition,
        s -> s.state + " (" + s.phase + ", " + s.failureReason + ")");
  }

  public static boolean isFinal(JobStateName state) {
    return EnumSet.of(
            JobStateName.SUCCEEDED,
            JobStateName.FAILED,
            JobStateName.CANCELLED,
            JobStateName.KILLED)
        .contains(state);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
