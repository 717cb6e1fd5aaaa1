package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Documents built to attack the server: each is refused, fast, and reads no local file. */
class HostileInputTest {
  private static final Duration FAST = Duration.ofSeconds(1);
  private static final String DOCTYPE_REFUSED =
      "DOCTYPE declarations are not allowed in a job description";

  @TempDir Path dir;

  /**
   * JAXB's context is built once per JVM, by the first valid document (seconds on a loaded
   * machine): built here, so that what parseFast times is the parse, whichever test runs first.
   */
  @BeforeAll
  static void bindingBuilt() {
    assertTrue(new JsdlParser().parse(JsdlDocuments.baseJob()).isValid());
  }

  private static ParseResult parseFast(String document) {
    return assertTimeoutPreemptively(FAST, () -> new JsdlParser().parse(document));
  }

  private static String jobNamed(String doctype, String name) {
    return "<?xml version=\"1.0\"?>\n"
        + doctype
        + "\n"
        + "<jsdl:JobDefinition xmlns:jsdl=\""
        + JsdlNamespaces.JSDL
        + "\"><jsdl:JobDescription>"
        + "<jsdl:JobIdentification><jsdl:JobName>"
        + name
        + "</jsdl:JobName></jsdl:JobIdentification>"
        + "</jsdl:JobDescription></jsdl:JobDefinition>";
  }

  @Test
  void externalEntityReadingALocalFileIsRefusedWithoutReadingIt() throws IOException {
    String marker = "SECRET-" + UUID.randomUUID();
    Path secret = Files.writeString(dir.resolve("secret.txt"), marker);
    ParseResult result =
        parseFast(
            jobNamed(
                "<!DOCTYPE jsdl:JobDefinition [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>",
                "&xxe;"));
    assertFalse(result.isValid());
    assertEquals(
        "line 2:10 "
            + DOCTYPE_REFUSED
            + " (they can read local files or expand entities);"
            + " remove the <!DOCTYPE ...> and the entities it declares\n",
        result.report().toString());
    assertFalse(result.report().toString().contains(marker));
  }

  @Test
  void externalEntityOnAPipeNeverOpensIt() throws Exception {
    // opening a FIFO for reading blocks until a writer comes: a parser that tried would time out
    Path fifo = dir.resolve("fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    ParseResult result =
        parseFast(
            jobNamed("<!DOCTYPE x [<!ENTITY xxe SYSTEM \"" + fifo.toUri() + "\">]>", "&xxe;"));
    assertTrue(result.report().toString().contains(DOCTYPE_REFUSED));
  }

  @Test
  void schemaLocationHintsAreNeverFetched() throws Exception {
    Path fifo = dir.resolve("schema-fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    String hinted =
        JsdlDocuments.baseJob()
            .replace(
                "xmlns:gx=\"urn:gantry:jsdl:ext:1\">",
                "xmlns:gx=\"urn:gantry:jsdl:ext:1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                    + " xsi:schemaLocation=\"urn:gantry:jsdl:ext:1 "
                    + fifo.toUri()
                    + " urn:other "
                    + fifo.toUri()
                    + "\">")
            .replace(
                "</jsdl:JobDefinition>",
                "<o:Note xmlns:o=\"urn:other\" xsi:schemaLocation=\"urn:other "
                    + fifo.toUri()
                    + "\"/></jsdl:JobDefinition>");
    ParseResult result = parseFast(hinted);
    assertTrue(result.isValid(), result.report().toString());
  }

  @Test
  void externalDtdAndParameterEntitiesAreRefused() {
    ParseResult dtd =
        parseFast(jobNamed("<!DOCTYPE x SYSTEM \"http://127.0.0.1:9/evil.dtd\">", "x"));
    assertTrue(dtd.report().toString().contains(DOCTYPE_REFUSED));
    ParseResult parameter =
        parseFast(jobNamed("<!DOCTYPE x [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>", "x"));
    assertTrue(parameter.report().toString().contains(DOCTYPE_REFUSED));
  }

  @Test
  void entityExpansionIsRefused() {
    StringBuilder laughs = new StringBuilder("<!DOCTYPE lolz [<!ENTITY lol0 \"lol\">");
    for (int i = 1; i < 10; i++) {
      laughs
          .append("<!ENTITY lol")
          .append(i)
          .append(" \"")
          .append(("&lol" + (i - 1) + ";").repeat(10))
          .append("\">");
    }
    ParseResult result = parseFast(jobNamed(laughs.append("]>").toString(), "&lol9;"));
    assertFalse(result.isValid());
    assertTrue(result.report().toString().contains(DOCTYPE_REFUSED));
  }

  @Test
  void oversizeDocumentIsRefusedBeforeParsing() {
    String huge = jobNamed("", "x".repeat((int) ParserOptions.DEFAULT_MAX_BYTES));
    ParseResult result = parseFast(huge);
    assertEquals(
        "the document is larger than the limit of 4194304 bytes; a job description is"
            + " normally a few KiB, so it is refused unread\n",
        result.report().toString());
  }

  @Test
  void endlessStreamIsCutOffAtTheLimit() {
    InputStream endless =
        new InputStream() {
          @Override
          public int read() {
            return ' ';
          }
        };
    ParseResult result =
        assertTimeoutPreemptively(
            FAST,
            () -> new JsdlParser(ParserOptions.defaults().withMaxBytes(64 * 1024)).parse(endless));
    assertTrue(
        result
            .report()
            .toString()
            .startsWith("the document is larger than the limit of 65536 bytes"));
  }

  @Test
  void oversizeFileIsRefusedByItsSize() throws IOException {
    Path big = Files.write(dir.resolve("big.jsdl"), new byte[4096]);
    ParseResult result = new JsdlParser(ParserOptions.defaults().withMaxBytes(4095)).parse(big);
    assertTrue(
        result
            .report()
            .toString()
            .startsWith("the document is larger than the limit of 4095 bytes"));
  }

  @Test
  void deepNestingIsRefusedAtTheFirstTooDeepElement() {
    int depth = 200_000;
    String document =
        "<jsdl:JobDefinition xmlns:jsdl=\""
            + JsdlNamespaces.JSDL
            + "\">\n"
            + "<a>".repeat(depth)
            + "</a>".repeat(depth)
            + "</jsdl:JobDefinition>";
    ParseResult result = parseFast(document);
    // the root is level 1, so the 64th <a> is the 65th level; each <a> is 3 characters
    assertEquals(
        "line 2:190 elements are nested deeper than 64 levels; a job description needs far"
            + " fewer, so the document is refused\n",
        result.report().toString());
  }

  /**
   * SAX lets an empty prefix through (":a") and the DOM refuses it: found by fuzzing the planner,
   * it escaped the parser as a DOMException (a generic server fault instead of a report).
   */
  @Test
  void aNameWithAnEmptyPrefixIsAnErrorWhereItStands() {
    for (String inside : new String[] {"<:a x=\"1\"/>", "<a :x=\"1\"/>"}) {
      String document =
          "<jsdl:JobDefinition xmlns:jsdl=\""
              + JsdlNamespaces.JSDL
              + "\">\n<jsdl:JobDescription>"
              + inside
              + "</jsdl:JobDescription></jsdl:JobDefinition>";
      ParseResult result = new JsdlParser().parse(document);
      assertFalse(result.isValid());
      String report = result.report().toString();
      assertTrue(report.startsWith("line 2:"), report);
      assertTrue(report.contains("is not a name XML namespaces allow"), report);
    }
  }

  @Test
  void limitsAreConfigurable() {
    String document = JsdlDocuments.baseJob();
    assertTrue(new JsdlParser().parse(document).isValid());
    ParserOptions tight = ParserOptions.defaults().withMaxBytes(2048);
    assertFalse(new JsdlParser(tight).parse(document).isValid());
    ParserOptions shallow = ParserOptions.defaults().withMaxDepth(8);
    assertTrue(new JsdlParser(shallow).parse(document).isValid());
    assertEquals(document.getBytes(StandardCharsets.UTF_8).length > 2048, true);
  }
}
