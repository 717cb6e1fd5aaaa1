package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Positions stay right whatever the line ends, characters and markup around the problem. */
class SourcePositionsTest {
  private static final String ZERO_PROCESSES_AT =
      "JobDefinition/JobDescription/Application/MpirunApplication/NumberOfProcesses:"
          + " must be at least 1, not 0";

  private static List<String> errors(String document) {
    return new JsdlParser()
        .parse(document).report().errors().stream().map(Problem::toString).toList();
  }

  @Test
  void aValidDocumentsElementsAreFoundWithTheirPlaces() {
    ParseResult result = new JsdlParser().parse(JsdlDocuments.baseJob());
    List<LocatedElement> refs = result.elements(JsdlNamespaces.GANTRY, "DataSourceRef");
    assertEquals(3, refs.size(), refs.toString());
    LocatedElement first = refs.get(0);
    assertEquals(35, first.line());
    assertEquals(9, first.column());
    assertEquals("market", first.text());
    assertTrue(first.path().endsWith("/DataSourceRef"), first.path());
    // the same path, as a problem from another reader of the document names it
    assertEquals(first, result.at(first.path()).orElseThrow());
    assertTrue(result.at("JobDefinition/NoSuchElement").isEmpty());
  }

  @Test
  void windowsLineEndsCountAsOneLineEach() {
    String crlf = JsdlDocuments.baseJob().replace("\n", "\r\n").replace(">8<", ">0<");
    assertEquals(List.of("line 14:9 " + ZERO_PROCESSES_AT), errors(crlf));
  }

  @Test
  void columnsCountCharactersNotBytes() {
    String document =
        JsdlDocuments.baseJob()
            .replace("<gx:NumberOfProcesses>8<", "<!--Zürich€--><gx:NumberOfProcesses>0<");
    assertEquals(List.of("line 14:23 " + ZERO_PROCESSES_AT), errors(document));
  }

  @Test
  void latin1DocumentsAreReadInTheirOwnEncoding() {
    String document =
        JsdlDocuments.baseJob()
            .replace("encoding=\"UTF-8\"", "encoding=\"ISO-8859-1\"")
            .replace("<gx:NumberOfProcesses>8<", "<!--Zürich--><gx:NumberOfProcesses>0<");
    ParseResult result = new JsdlParser().parse(document.getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(
        List.of("line 14:22 " + ZERO_PROCESSES_AT),
        result.report().errors().stream().map(Problem::toString).toList());
  }

  @Test
  void sqlInCdataAndEscapedTextKeepsItsParameters() {
    String cdata =
        JsdlDocuments.baseJob()
            .replace(
                "SELECT * FROM trade WHERE book_id = ?",
                "<![CDATA[SELECT * FROM trade WHERE book_id = ? AND size < 5 AND note <> '?']]>");
    JsdlJob job = new JsdlParser().parse(cdata).validJob();
    assertEquals(
        "SELECT * FROM trade WHERE book_id = ? AND size < 5 AND note <> '?'",
        job.sqlQueries().get(1).getSQLStatement());
    String escaped =
        JsdlDocuments.baseJob().replace("WHERE book_id = ?", "WHERE book_id = ? AND size &lt; 5");
    assertTrue(new JsdlParser().parse(escaped).isValid());
  }
}
