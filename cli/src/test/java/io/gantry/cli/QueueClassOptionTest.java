package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** {@code gantry submit --queue CLASS}: the class lands in the document as its gx:Queue. */
class QueueClassOptionTest {
  static final String JOB =
      "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
          + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
          + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription><jsdl:Application>"
          + "<posix:POSIXApplication><posix:Executable>/bin/true</posix:Executable>"
          + "</posix:POSIXApplication></jsdl:Application>%s</jsdl:JobDescription>"
          + "</jsdl:JobDefinition>";

  private static Optional<String> submittedClass(String extra, String option) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Element root =
        factory
            .newDocumentBuilder()
            .parse(
                new ByteArrayInputStream(
                    String.format(JOB, extra).getBytes(StandardCharsets.UTF_8)))
            .getDocumentElement();
    QueueClassOption queue = new QueueClassOption();
    queue.queueClass = option;
    queue.applyTo(root);
    StringWriter xml = new StringWriter();
    TransformerFactory.newInstance()
        .newTransformer()
        .transform(new DOMSource(root), new StreamResult(xml));
    ParseResult parsed = new JsdlParser().parse(xml.toString().getBytes(StandardCharsets.UTF_8));
    return parsed.validJob().queueClass();
  }

  @Test
  void theOptionSetsOrReplacesTheDocumentsClass() throws Exception {
    assertEquals(Optional.of("urgent"), submittedClass("", "urgent"));
    assertEquals(Optional.of("urgent"), submittedClass("<gx:Queue>batch</gx:Queue>", "urgent"));
    assertEquals(Optional.of("batch"), submittedClass("<gx:Queue>batch</gx:Queue>", null));
    assertEquals(Optional.empty(), submittedClass("", null));
  }
}
