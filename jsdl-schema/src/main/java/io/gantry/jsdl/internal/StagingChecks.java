package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.JobOutputUri;
import io.gantry.jsdl.JsdlDefaults;
import io.gantry.jsdl.StagingCredential;
import io.gantry.jsdl.StagingPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * Checks on data staging that the schema cannot make.
 *
 * <ol>
 *   <li>Orders and groups are at least 1; ports are real ports; batch sizes at least 1.
 *   <li>Every file on the job side stays inside the job directory.
 *   <li>Stage-in copies to the job (transmit), stage-out copies from it (receive).
 *   <li>Each SQLInputFileName of a stage-in query is the output of a query in an earlier
 *       ExecutionOrderGroup, since groups run one after another and a group's queries in parallel;
 *       no two queries write the same file.
 *   <li>Statements fit their element, as a SQL parser reads them ({@link SqlStatements}: one query
 *       to stage in, one INSERT/UPDATE/MERGE/DELETE to stage out, only allowed functions), and have
 *       ? parameters exactly when an input file binds them.
 *   <li>Passwords are in the encrypted form.
 *   <li>Inline data sources and remote hosts pass the server's {@link StagingPolicy}.
 *   <li>A standard DataStaging URI has a scheme the gateway moves and a host the policy allows; its
 *       credential (GFD.135 UsernameToken) carries an encrypted password or names an identity, and
 *       a password goes only over an encrypting scheme.
 * </ol>
 */
final class StagingChecks {
  private static final List<String> STAGED_SCHEMES =
      List.of("file", "http", "https", "scp", "sftp", "ftp", "ftps", JobOutputUri.SCHEME);
  private static final Set<String> PLAIN_SCHEMES = Set.of("http", "ftp", "file");

  private final Findings findings;
  private final JobDirectoryPaths paths;
  private final StagingPolicy policy;

  StagingChecks(Findings findings, JobDirectoryPaths paths, StagingPolicy policy) {
    this.findings = findings;
    this.paths = paths;
    this.policy = policy;
  }

  void check(Element root) {
    Element description = Dom.child(root, JSDL, "JobDescription");
    for (Element staging : Dom.children(description, JSDL, "DataStaging")) {
      stagedFile(Dom.child(staging, JSDL, "FileName"));
      sourceOrTarget(Dom.child(staging, JSDL, "Source"));
      sourceOrTarget(Dom.child(staging, JSDL, "Target"));
      cacheValidity(staging, Dom.child(staging, JSDL, "Source") != null);
      stream(staging, description);
    }
    for (Element pre : Dom.children(description, GANTRY, "PreDataStaging")) {
      scp(pre, "transmit", "TargetFileName", "stage-in copies files into the job directory");
      queries(Dom.children(pre, GANTRY, "SQLQueryDataStaging"));
    }
    for (Element post : Dom.children(description, GANTRY, "PostDataStaging")) {
      scp(post, "receive", "SourceFileName", "stage-out copies files out of the job directory");
      for (Element update : Dom.children(post, GANTRY, "SQLUpdateDataStaging")) {
        update(update);
      }
    }
  }

  /**
   * A stage-in cache validity of a remote file (SCPDataStaging, DataStaging): not negative, and
   * only where a file comes in (a stage-out has nothing to cache).
   */
  private void cacheValidity(Element staging, boolean stagesIn) {
    Element validity = Dom.child(staging, GANTRY, "CacheValidity");
    if (validity == null) {
      return;
    }
    if (Dom.text(validity).startsWith("-")) {
      findings.error(validity, "must not be negative; PT0S means never cached");
    } else if (!stagesIn) {
      findings.warning(
          validity, "only a stage-in is cached; this " + staging.getLocalName() + " has none");
    }
  }

  /**
   * {@code gx:Stream}: the program reads this stage-in while its producer writes it, so the Source
   * must be a file of a job this one starts beside ({@code gantry-job:} naming a job in {@code
   * gx:AfterStart}), the file in the job directory itself (a FIFO or a growing file is made there),
   * replaced whole (no append), and {@code file} only for a blocked-gzip file, whose end-of-file
   * block tells its reader where it ends.
   */
  private void stream(Element staging, Element description) {
    Element stream = Dom.child(staging, GANTRY, "Stream");
    if (stream == null) {
      return;
    }
    String value = Dom.text(stream);
    java.util.Optional<io.gantry.jsdl.StreamDelivery> delivery =
        io.gantry.jsdl.StreamDelivery.of(value);
    if (delivery.isEmpty()) {
      findings.error(
          stream,
          "Stream is '"
              + value
              + "'; it is pipe (the file is a FIFO the program reads once, in order) or file (a"
              + " .gz file that grows until its producer ends)");
      return;
    }
    Element source = Dom.child(staging, JSDL, "Source");
    String uri = source == null ? null : Dom.text(Dom.child(source, JSDL, "URI"));
    JobOutputUri producer = null;
    if (uri != null && JobOutputUri.is(uri)) {
      try {
        producer = JobOutputUri.parse(uri);
      } catch (IllegalArgumentException e) {
        return; // reported at the URI
      }
    }
    if (producer == null) {
      findings.error(
          stream,
          "only a Source gantry-job:JOB/FILE of a job this one starts beside (gx:AfterStart) can"
              + " be streamed");
      return;
    }
    Element dependencies = Dom.child(description, GANTRY, "Dependencies");
    String job = producer.job();
    boolean afterStart =
        dependencies != null
            && Dom.children(dependencies, GANTRY, "AfterStart").stream()
                .anyMatch(e -> job.equals(Dom.text(e)));
    if (!afterStart) {
      findings.error(
          stream,
          "streams job "
              + job
              + "'s file while it is written, so the job must start beside it: add <gx:AfterStart>"
              + job
              + "</gx:AfterStart> to gx:Dependencies");
    }
    if (Dom.child(staging, JSDL, "FilesystemName") != null) {
      findings.error(stream, "a streamed file lies in the job directory, not in a FilesystemName");
    }
    Element flag = Dom.child(staging, JSDL, "CreationFlag");
    if (flag != null && "append".equals(Dom.text(flag))) {
      findings.error(stream, "a streamed file cannot be appended to; use overwrite");
    }
    Element fileName = Dom.child(staging, JSDL, "FileName");
    String name = fileName == null ? "" : Dom.text(fileName);
    if (delivery.get() == io.gantry.jsdl.StreamDelivery.FILE && !name.endsWith(".gz")) {
      findings.error(
          stream,
          "Stream file is only for a blocked-gzip FileName ending in .gz (its reader follows it to"
              + " its end-of-file block); "
              + name
              + " streams with pipe");
    }
  }

  private void sourceOrTarget(Element side) {
    if (side == null) {
      return;
    }
    Element uri = Dom.child(side, JSDL, "URI");
    String scheme = uriScheme(uri, side);
    if (JobOutputUri.SCHEME.equals(scheme)) {
      jobOutput(uri, side);
      return;
    }
    if (scheme != null && !scheme.equals("file")) {
      host(uri, scheme);
    }
    for (Element credential :
        Dom.children(side).stream().filter(StagingCredential::isCredential).toList()) {
      credential(credential, uri, scheme);
    }
  }

  /**
   * An error, not a warning: the document is valid JSDL, but a job Gantry cannot stage must not
   * wait in the queue only to fail at stage-in. Returns the scheme, lower case, or null.
   */
  private String uriScheme(Element uri, Element side) {
    String text = Dom.text(uri);
    if (text == null || text.isEmpty()) {
      findings.error(
          uri == null ? side : uri,
          side.getLocalName()
              + " has no URI to stage "
              + (side.getLocalName().equals("Source") ? "from" : "to"));
      return null;
    }
    int colon = text.indexOf(':');
    String scheme = colon < 1 ? "" : text.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
    if (!STAGED_SCHEMES.contains(scheme)) {
      findings.error(
          uri,
          (scheme.isEmpty()
                  ? "the URI has no scheme"
                  : "Gantry cannot stage '" + scheme + ":' URIs")
              + "; it stages "
              + String.join(":, ", STAGED_SCHEMES)
              + ": URIs");
      return null;
    }
    return scheme;
  }

  /**
   * A file of an earlier job: only a Source (a job's directory is written by its own program, never
   * by another job's stage-out), in the form {@code gantry-job:JOB/FILE}, with no Credential (the
   * server reads it as the jobs' common owner).
   */
  private void jobOutput(Element uri, Element side) {
    if (side.getLocalName().equals("Target")) {
      findings.error(
          uri,
          JobOutputUri.SCHEME
              + ": names an earlier job's file to stage in; it can only be a Source, not a"
              + " Target");
      return;
    }
    try {
      JobOutputUri.parse(Dom.text(uri));
    } catch (IllegalArgumentException e) {
      findings.error(uri, e.getMessage());
    }
    if (Dom.children(side).stream().anyMatch(StagingCredential::isCredential)) {
      findings.error(
          side,
          "a "
              + JobOutputUri.SCHEME
              + ": Source takes no Credential: the job's own owner reads it");
    }
  }

  /** The URI's host and port must pass the server's host rule, as scp/sftp hosts do. */
  private void host(Element uri, String scheme) {
    java.net.URI parsed;
    try {
      parsed = new java.net.URI(Dom.text(uri));
    } catch (java.net.URISyntaxException e) {
      findings.error(uri, "the URI is not valid: " + e.getMessage());
      return;
    }
    if (parsed.getHost() == null) {
      findings.error(uri, "the URI names no host");
      return;
    }
    int port =
        parsed.getPort() > 0
            ? parsed.getPort()
            : switch (scheme) {
              case "http" -> 80;
              case "https" -> 443;
              case "ftp", "ftps" -> 21;
              default -> 22;
            };
    policy
        .remoteHostProblem(parsed.getHost(), port)
        .ifPresent(problem -> findings.error(uri, problem));
  }

  private void credential(Element credential, Element uri, String scheme) {
    StagingCredential c = StagingCredential.read(credential);
    Element password = StagingCredential.passwordElement(credential);
    if (uri == null) {
      findings.error(credential, "a Credential needs a URI beside it to log in to");
    }
    if (c.password() == null && c.identityRef() == null) {
      findings.error(
          credential,
          "the Credential holds neither a wsse:UsernameToken with a Password nor a"
              + " gx:IdentityRef naming an identity of the server");
      return;
    }
    if (password != null) {
      String type = password.getAttribute("Type");
      if (type.endsWith("#PasswordDigest")) {
        findings.error(
            password,
            "a PasswordDigest cannot be used to log in elsewhere; give the password"
                + " encrypted for this server (gantry encrypt-password)");
      } else {
        boolean clear = !c.password().startsWith("ENC(");
        EncryptedSecret.problem(c.password())
            .ifPresent(
                problem ->
                    findings.error(
                        password,
                        problem
                            + (clear
                                ? "; a clear password is never accepted in a job description"
                                : "")
                            + " (or name an identity of the server with gx:IdentityRef)"));
      }
      if (c.user() == null || c.user().isEmpty()) {
        findings.error(credential, "the UsernameToken has no Username");
      }
      if (scheme != null && PLAIN_SCHEMES.contains(scheme)) {
        findings.error(
            password,
            "a password is sent only over an encrypted connection; use "
                + (scheme.equals("ftp") ? "ftps:" : "https:")
                + " instead of "
                + scheme
                + ":");
      }
    }
  }

  private void scp(Element list, String direction, String jobSideFile, String why) {
    for (Element scp : Dom.children(list, GANTRY, "SCPDataStaging")) {
      findings.atLeast(Dom.child(scp, GANTRY, "ArrangingOrder"), 1);
      Element directionElement = Dom.child(scp, GANTRY, "Direction");
      if (directionElement != null
          && !direction.equals(Dom.text(directionElement))
          && Set.of("transmit", "receive").contains(Dom.text(directionElement))) {
        findings.error(
            directionElement,
            "must be " + direction + " in " + list.getLocalName() + " (" + why + ")");
      }
      Element port = Dom.child(scp, GANTRY, "RemotePort");
      Long number = Dom.number(port);
      if (number != null && (number < 1 || number > 65535)) {
        findings.error(port, "must be a TCP port from 1 to 65535, not " + number);
      } else {
        remoteHost(
            Dom.child(scp, GANTRY, "RemoteHostName"),
            number == null ? JsdlDefaults.SSH_PORT : number.intValue());
      }
      password(Dom.child(scp, GANTRY, "RemotePassword"), "or name an SSH key with IdentityRef");
      stagedFile(Dom.child(scp, GANTRY, jobSideFile));
      cacheValidity(scp, direction.equals("transmit"));
    }
  }

  private void queries(List<Element> queries) {
    Map<String, Element> producers = new HashMap<>();
    for (Element query : queries) {
      dataSource(query);
      findings.atLeast(Dom.child(query, GANTRY, "ExecutionOrderGroup"), 1);
      Element output = Dom.child(query, GANTRY, "SQLOutputFileName");
      if (stagedFile(output)) {
        Element earlier =
            producers.putIfAbsent(JobDirectoryPaths.canonical(Dom.text(output)), query);
        if (earlier != null) {
          findings.error(
              output,
              "'"
                  + Dom.text(output)
                  + "' is also written by "
                  + ElementPaths.of(earlier)
                  + "; each query needs its own output file");
        }
      }
    }
    for (Element query : queries) {
      Element input = Dom.child(query, GANTRY, "SQLInputFileName");
      statement(query, SqlStatements.Kind.QUERY, "SQLQueryDataStaging reads data", input != null);
      cache(query);
      if (stagedFile(input)) {
        producedEarlier(query, input, producers);
      }
    }
  }

  /**
   * The stage-in cache elements: a validity that is not negative, and a key query that is one query
   * without parameters under the same SQL rules as SQLStatement (it runs on the same data source
   * before every cached extract).
   */
  private void cache(Element query) {
    Element validity = Dom.child(query, GANTRY, "CacheValidity");
    if (validity != null && Dom.text(validity).startsWith("-")) {
      findings.error(validity, "must not be negative; PT0S means never cached");
    }
    Element keyQuery = Dom.child(query, GANTRY, "CacheKeyQuery");
    String sql = Dom.text(keyQuery);
    if (keyQuery == null || sql == null || sql.isEmpty()) {
      return;
    }
    SqlStatements.problem(sql, SqlStatements.Kind.QUERY, policy.extraSqlFunctions())
        .ifPresent(
            problem -> findings.error(keyQuery, "CacheKeyQuery reads data; this query " + problem));
    if (SqlText.parameterCount(sql) > 0) {
      findings.error(
          keyQuery,
          "must have no ? parameters: it runs once, before the extract, with nothing to bind");
    }
  }

  private void producedEarlier(Element query, Element input, Map<String, Element> producers) {
    Element producer = producers.get(JobDirectoryPaths.canonical(Dom.text(input)));
    Long group = Dom.number(Dom.child(query, GANTRY, "ExecutionOrderGroup"));
    if (producer == null) {
      findings.error(
          input,
          "'"
              + Dom.text(input)
              + "' is not produced by an earlier ExecutionOrderGroup;"
              + " it must be the SQLOutputFileName of a query in a lower group");
      return;
    }
    Long producerGroup = Dom.number(Dom.child(producer, GANTRY, "ExecutionOrderGroup"));
    if (group != null && producerGroup != null && producerGroup >= group) {
      findings.error(
          input,
          "'"
              + Dom.text(input)
              + "' is produced by group "
              + producerGroup
              + " ("
              + ElementPaths.of(producer)
              + "), which does not run before this query's group "
              + group
              + "; move the producer to a lower ExecutionOrderGroup");
    }
  }

  private void update(Element update) {
    dataSource(update);
    findings.atLeast(Dom.child(update, GANTRY, "ExecutionOrderGroup"), 1);
    findings.atLeast(Dom.child(update, GANTRY, "BatchSize"), 1);
    stagedFile(Dom.child(update, GANTRY, "SQLInputFileName"));
    // the input file is required here: if it is missing the schema check says so, not this one
    statement(update, SqlStatements.Kind.UPDATE, "SQLUpdateDataStaging writes results", true);
  }

  private void statement(
      Element staging, SqlStatements.Kind kind, String purpose, boolean hasInput) {
    Element statement = Dom.child(staging, GANTRY, "SQLStatement");
    String sql = Dom.text(statement);
    if (sql == null || sql.isEmpty()) {
      return; // the schema check reports it
    }
    SqlStatements.problem(sql, kind, policy.extraSqlFunctions())
        .ifPresent(
            problem -> findings.error(statement, purpose + "; this SQLStatement " + problem));
    // the ? markers a template parameter filled are bound to its value, not to input rows
    int parameters = SqlText.parameterCount(sql) - TemplateFilling.parameterMarkers(statement);
    if (parameters > 0 && !hasInput) {
      findings.error(
          statement,
          "has "
              + parameters
              + " ? parameter(s) but there is no SQLInputFileName"
              + " whose rows bind them");
    } else if (parameters == 0 && hasInput) {
      findings.error(
          statement,
          "has no ? parameters, so the rows of SQLInputFileName have nothing to bind;"
              + " add the parameters or remove SQLInputFileName");
    }
  }

  private void dataSource(Element staging) {
    Element inline = Dom.child(staging, GANTRY, "DataSource");
    Element url = Dom.child(inline, GANTRY, "JDBCURL");
    if (url != null && !Dom.text(url).isEmpty()) {
      policy
          .inlineDataSourceProblem(Dom.text(url))
          .ifPresent(problem -> findings.error(url, problem));
    }
    password(
        Dom.child(inline, GANTRY, "Password"),
        "or use DataSourceRef to name a data source configured on the server");
  }

  private void remoteHost(Element host, int port) {
    if (host != null && !Dom.text(host).isEmpty()) {
      policy
          .remoteHostProblem(Dom.text(host), port)
          .ifPresent(problem -> findings.error(host, problem));
    }
  }

  private void password(Element password, String alternative) {
    if (password != null) {
      EncryptedSecret.problem(Dom.text(password))
          .ifPresent(problem -> findings.error(password, problem + ", " + alternative));
    }
  }

  /** Checks a job-side file name; true when it is present and acceptable. */
  private boolean stagedFile(Element file) {
    if (file == null || Dom.text(file).isEmpty()) {
      return false;
    }
    var problem = paths.stagedFileProblem(Dom.text(file));
    problem.ifPresent(p -> findings.error(file, p));
    return problem.isEmpty();
  }
}
