package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the parser alone refuses in standard DataStaging: unknown schemes and clear passwords. */
class StandardStagingChecksTest {
  static String job(String staging) {
    return """
        <JobDefinition xmlns="http://schemas.ggf.org/jsdl/2005/11/jsdl"
            xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"
            xmlns:ac="http://schemas.ogf.org/hpcp/2007/11/ac"
            xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
            xmlns:gx="urn:gantry:jsdl:ext:1">
          <JobDescription>
            <Application><posix:POSIXApplication><posix:Executable>/bin/cat</posix:Executable>
            </posix:POSIXApplication></Application>
        """
        + staging
        + """
          </JobDescription>
        </JobDefinition>
        """;
  }

  static String staging(String side, String uri, String credential) {
    return "<DataStaging><FileName>in.txt</FileName><CreationFlag>overwrite</CreationFlag>\n<"
        + side
        + "><URI>"
        + uri
        + "</URI>"
        + credential
        + "</"
        + side
        + "></DataStaging>\n";
  }

  static String token(String password) {
    return "<ac:Credential><wsse:UsernameToken><wsse:Username>alice</wsse:Username>\n<wsse:Password>"
        + password
        + "</wsse:Password></wsse:UsernameToken></ac:Credential>";
  }

  static List<String> errors(String document) {
    return new JsdlParser()
        .parse(document).report().errors().stream().map(Problem::toString).toList();
  }

  @Test
  void everySupportedSchemeIsAcceptedWithoutAWarning() {
    for (String uri :
        List.of(
            "file:///data/in.txt",
            "http://h.example/in.txt",
            "https://h.example/in.txt",
            "scp://u@h.example/in.txt",
            "sftp://u@h.example/in.txt",
            "ftp://h.example/in.txt",
            "ftps://h.example/x")) {
      ParseResult r = new JsdlParser().parse(job(staging("Source", uri, "")));
      assertTrue(r.isValid(), uri + ": " + r.report());
      assertEquals(List.of(), r.report().warnings(), uri);
    }
  }

  @Test
  void anUnsupportedSchemeIsAnErrorAtTheUriNamingWhatIsSupported() {
    assertEquals(
        List.of(
            "line 10:9 JobDefinition/JobDescription/DataStaging/Source/URI: Gantry cannot stage"
                + " 'gsiftp:' URIs; it stages file:, http:, https:, scp:, sftp:, ftp:, ftps:, gantry-job: URIs"),
        errors(job(staging("Source", "gsiftp://grid.example/in.txt", ""))));
    assertEquals(1, errors(job(staging("Target", "srm://grid.example/out.txt", ""))).size());
  }

  @Test
  void aClearPasswordInAUsernameTokenIsRefusedAtItsPosition() {
    List<String> errors =
        errors(job(staging("Source", "https://files.example/in.txt", token("hunter2"))));
    assertEquals(1, errors.size(), errors.toString());
    assertTrue(
        errors
            .get(0)
            .startsWith(
                "line 11:1 JobDefinition/JobDescription/DataStaging/Source/Credential/"
                    + "UsernameToken/Password: "),
        errors.get(0));
    assertTrue(errors.get(0).contains("a clear password is never accepted"), errors.get(0));
    assertTrue(!errors.get(0).contains("hunter2"), "the password is not repeated");
  }

  @Test
  void aPasswordForAPlainTextSchemeIsRefused() {
    String value = "ENC(RSA-OAEP-256-v2:" + "A".repeat(40) + ")";
    List<String> errors =
        errors(job(staging("Source", "ftp://files.example/in.txt", token(value))));
    assertTrue(
        errors.stream().anyMatch(e -> e.contains("use ftps: instead of ftp:")), errors.toString());
  }

  @Test
  void anIdentityReferenceIsACredentialAndNotAForeignElement() {
    ParseResult r =
        new JsdlParser()
            .parse(
                job(
                    staging(
                        "Source",
                        "sftp://risk@h.example/in.txt",
                        "<ac:Credential><gx:IdentityRef>demo-ssh</gx:IdentityRef></ac:Credential>")));
    assertTrue(r.isValid(), r.report().toString());
    assertEquals(List.of(), r.report().warnings());
    assertEquals(
        "demo-ssh",
        StagingCredential.of(r.validJob().dataStaging().get(0).getSource().getAny())
            .orElseThrow()
            .identityRef());
  }

  @Test
  void aHostTheServerDoesNotAllowIsAnErrorAtTheUri() {
    StagingPolicy onlyFiles =
        new StagingPolicy() {
          @Override
          public java.util.Optional<String> inlineDataSourceProblem(String jdbcUrl) {
            return java.util.Optional.empty();
          }

          @Override
          public java.util.Optional<String> remoteHostProblem(String host, int port) {
            return java.util.Optional.of("could not connect to " + host + ":" + port);
          }
        };
    ParseResult r =
        new JsdlParser(ParserOptions.defaults(), onlyFiles)
            .parse(job(staging("Target", "https://files.example/out.txt", "")));
    assertEquals(
        List.of(
            "line 10:9 JobDefinition/JobDescription/DataStaging/Target/URI: could not connect to"
                + " files.example:443"),
        r.report().errors().stream().map(Problem::toString).toList());
  }

  @Test
  void aStagingUriLoginIsADestinationOfItsOwn() {
    assertEquals(
        "ftps://alice@files.example:21", SecretBinding.canonical("FTPS://alice@Files.Example"));
    assertEquals(
        "https://alice@h:8443",
        SecretBinding.uri("bob", "https", "alice", "h", 8443).destination());
  }
}
