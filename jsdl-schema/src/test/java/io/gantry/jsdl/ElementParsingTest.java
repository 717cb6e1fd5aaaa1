package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

/**
 * A JobDefinition element handed over in a SOAP body is read once when it has nothing to report,
 * and reads exactly as the element written out on its own and parsed again: the same job, the same
 * report, the same positions when asked for.
 */
class ElementParsingTest {
  private final JsdlParser parser = new JsdlParser();

  static List<Path> examples() throws Exception {
    return ExamplesTest.examples().stream().filter(f -> !f.toString().contains("chain")).toList();
  }

  /**
   * The element inside a SOAP envelope that declares namespaces of its own, as a server sees it.
   */
  private static Element inEnvelope(String jobDefinition) throws Exception {
    String body = jobDefinition.replaceFirst("^<\\?xml[^>]*\\?>\\s*", "");
    String envelope =
        "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\""
            + " xmlns:g=\"urn:gantry:test\"><soap:Body><g:submitJob><jobDefinition>\n"
            + body
            + "\n</jobDefinition></g:submitJob></soap:Body></soap:Envelope>";
    org.w3c.dom.Node wrapper =
        HardenedXml.parse(envelope).getElementsByTagName("jobDefinition").item(0).getFirstChild();
    while (!(wrapper instanceof Element)) {
      wrapper = wrapper.getNextSibling();
    }
    return (Element) wrapper;
  }

  /** What the parser did with such an element before: wrote it out and parsed the bytes. */
  private ParseResult writtenOut(Element element) throws Exception {
    Transformer identity = HardenedXml.transformerFactory().newTransformer();
    identity.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
    identity.setOutputProperty(OutputKeys.INDENT, "no");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    identity.transform(new DOMSource(element), new StreamResult(out));
    return parser.parse(out.toByteArray(), Map.of());
  }

  @ParameterizedTest
  @MethodSource("examples")
  void everyExampleReadsAsWrittenOut(Path example) throws Exception {
    Element element = inEnvelope(Files.readString(example));
    ParseResult once = parser.parse(element);
    ParseResult exact = writtenOut(element);
    assertEquals(exact.report().problems(), once.report().problems(), example.toString());
    assertTrue(once.isValid(), example.toString());
    assertEquals(JsdlWriter.write(exact.validJob()), JsdlWriter.write(once.validJob()));
    assertEquals(
        exact.validJob().taskFarm().map(f -> f.sweepTaskCount()),
        once.validJob().taskFarm().map(f -> f.sweepTaskCount()));
    for (String name : List.of("JobName", "Executable", "ApplicationName")) {
      assertEquals(
          exact.elements(JsdlNamespaces.JSDL, name), once.elements(JsdlNamespaces.JSDL, name));
    }
    assertEquals(
        exact.elements(JsdlNamespaces.GANTRY, "DataSourceRef"),
        once.elements(JsdlNamespaces.GANTRY, "DataSourceRef"));
    assertEquals(
        exact.texts(JsdlNamespaces.GANTRY, "DataSourceRef"),
        once.texts(JsdlNamespaces.GANTRY, "DataSourceRef"));
  }

  @Test
  void aPositionAskedOfADocumentReadOnceIsWhereTheWrittenOutElementHasIt() throws Exception {
    Element element = inEnvelope(JsdlDocuments.baseJob());
    ParseResult once = parser.parse(element);
    assertTrue(once.isValid(), once.report().toString());
    List<LocatedElement> names = once.elements(JsdlNamespaces.JSDL, "JobName");
    assertFalse(names.isEmpty());
    assertTrue(names.get(0).line() > 0 && names.get(0).column() > 0, names.toString());
    assertEquals(writtenOut(element).elements(JsdlNamespaces.JSDL, "JobName"), names);
  }

  @Test
  void anInvalidElementIsReportedWhereTheWrittenOutElementHasItsProblems() throws Exception {
    Element element =
        inEnvelope(
            JsdlDocuments.baseJob()
                .replaceFirst("<jsdl:JobName>", "<jsdl:JobName><jsdl:Unknown/>"));
    ParseResult once = parser.parse(element);
    assertFalse(once.isValid());
    assertEquals(writtenOut(element).report().problems(), once.report().problems());
    assertTrue(once.report().errors().get(0).line() > 0, once.report().toString());
  }

  @Test
  void aDraftNamespaceIsStillReadWithItsWarning() throws Exception {
    String draft =
        JsdlDocuments.baseJob()
            .replace(JsdlNamespaces.JSDL + "\"", JsdlNamespaces.JSDL_DRAFT_2005_04 + "\"");
    Element element =
        (Element)
            HardenedXml.parse(draft)
                .getElementsByTagNameNS(JsdlNamespaces.JSDL_DRAFT_2005_04, "JobDefinition")
                .item(0);
    ParseResult once = parser.parse(element);
    assertEquals(writtenOut(element).report().problems(), once.report().problems());
    assertTrue(once.report().toString().contains("draft JSDL namespace"), once.report().toString());
  }

  @Test
  void anElementNearTheSizeLimitIsMeasuredWrittenOut() throws Exception {
    JsdlParser small = new JsdlParser(ParserOptions.defaults().withMaxBytes(1024));
    Element element = inEnvelope(JsdlDocuments.baseJob());
    ParseResult result = small.parse(element);
    assertFalse(result.isValid());
    assertTrue(
        result.report().toString().contains("larger than the limit"), result.report().toString());
  }
}
