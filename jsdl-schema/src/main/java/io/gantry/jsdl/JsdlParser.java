package io.gantry.jsdl;

import io.gantry.jsdl.internal.DocumentChecks;
import io.gantry.jsdl.internal.ElementImport;
import io.gantry.jsdl.internal.JsdlBinding;
import io.gantry.jsdl.internal.LocatedDomReader;
import io.gantry.jsdl.internal.TemplateFilling;
import io.gantry.jsdl.model.core.JobDefinitionType;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.JAXBException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The strict reader of Gantry job descriptions (extended JSDL). Thread-safe.
 *
 * <ol>
 *   <li>Refuse documents over the size limit before parsing anything.
 *   <li>Read with a hardened parser (no DOCTYPE, no entities, nesting limit) into a DOM that
 *       remembers each element's line and column; the 2005/04 draft namespace is renamed.
 *   <li>Fill a job template's parameters ({@code gx:Parameters}), so that every check below sees
 *       the values as if they had been written in the document.
 *   <li>Validate against the JSDL, POSIX, SPMD and Gantry schemas, in plain words.
 *   <li>Check what a schema cannot (staging order, job-directory confinement, passwords, the SQL of
 *       each staging step, the operator's {@link StagingPolicy}).
 *   <li>Read the task farm, if any (a GFD.149 Sweep, Gantry's TaskFarm), counting its tasks.
 *   <li>Only when there is no error, bind the DOM to the generated JAXB model.
 * </ol>
 */
public final class JsdlParser {
  private final ParserOptions options;
  private final StagingPolicy stagingPolicy;

  public JsdlParser() {
    this(ParserOptions.defaults());
  }

  public JsdlParser(ParserOptions options) {
    this(options, StagingPolicy.CLIENT_SIDE);
  }

  /** A parser that also applies a server's staging policy (data sources, hosts, SQL functions). */
  public JsdlParser(ParserOptions options, StagingPolicy stagingPolicy) {
    this.options = options;
    this.stagingPolicy = stagingPolicy;
  }

  public ParserOptions options() {
    return options;
  }

  public ParseResult parse(Path file) throws IOException {
    if (Files.size(file) > options.maxBytes()) {
      return refusedAsTooLarge();
    }
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in);
    }
  }

  /** Reads at most the size limit (plus one byte to notice more); does not close the stream. */
  public ParseResult parse(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, options.maxBytes() + 1));
    return parse(bytes);
  }

  public ParseResult parse(String xml) {
    return parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A job template filled with {@code values} (parameter name to value); see {@link JobTemplate}.
   */
  public ParseResult parse(String xml, Map<String, String> values) {
    return parse(xml.getBytes(StandardCharsets.UTF_8), values);
  }

  /**
   * Parses a JobDefinition element handed over in a larger document (a SOAP body). Lines and
   * columns in the report refer to the element as serialised on its own.
   */
  public ParseResult parse(Element jobDefinition) {
    return parse(jobDefinition, Map.of());
  }

  /**
   * {@link #parse(Element)} of a job template filled with {@code values}.
   *
   * <p>A server parses every submission this way, so the common case is read once: the element is
   * copied into a document of its own and checked as it is ({@link ElementImport}). Only a document
   * with something to report (or a template, whose stored source is the element written out) is
   * read the exact way, written out and parsed again, so that every line and column in its report
   * refers to the element as serialised on its own, as before. The positions of a document read
   * once are found the same way when first asked for ({@link ParseResult#elements}).
   */
  public ParseResult parse(Element jobDefinition, Map<String, String> values) {
    if (values.isEmpty()) {
      Document copy = ElementImport.copy(jobDefinition, options.maxDepth(), options.maxBytes());
      if (copy != null
          && copy.getElementsByTagNameNS(JsdlNamespaces.GANTRY, "Parameters").getLength() == 0) {
        ValidationReport report = new ValidationReport();
        ParseResult once =
            checked(
                copy,
                Map.of(),
                report,
                () -> parseWrittenOut(jobDefinition, values).positionedDocument());
        if (report.problems().isEmpty()) {
          return once;
        }
      }
    }
    return parseWrittenOut(jobDefinition, values);
  }

  /** The exact way: the element written out on its own and read with positions. */
  private ParseResult parseWrittenOut(Element jobDefinition, Map<String, String> values) {
    try {
      Transformer identity = HardenedXml.transformerFactory().newTransformer();
      identity.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      identity.setOutputProperty(OutputKeys.INDENT, "no");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      identity.transform(new DOMSource(jobDefinition), new StreamResult(out));
      return parse(out.toByteArray(), values);
    } catch (TransformerException e) {
      ValidationReport report = new ValidationReport();
      report.error(0, 0, "", "the JobDefinition element cannot be read: " + e.getMessage());
      return new ParseResult(report, null);
    }
  }

  public ParseResult parse(byte[] xml) {
    return parse(xml, Map.of());
  }

  /**
   * Parses a job template filled with {@code values} (parameter name to value, as given on the
   * command line, in the wizard or in submitJob). A document that declares no {@code gx:Parameters}
   * is read exactly as written and must be given no values.
   */
  public ParseResult parse(byte[] xml, Map<String, String> values) {
    if (xml.length > options.maxBytes()) {
      return refusedAsTooLarge();
    }
    ValidationReport report = new ValidationReport();
    Document document = LocatedDomReader.read(xml, options.maxDepth(), report);
    if (document == null) {
      return new ParseResult(report, null);
    }
    return checked(document, values, report, null);
  }

  /**
   * Every check after reading; {@code positions} gives the same document with positions where
   * {@code document} has none.
   */
  private ParseResult checked(
      Document document,
      Map<String, String> values,
      ValidationReport report,
      Supplier<Document> positions) {
    Optional<JobTemplate> template = TemplateFilling.fill(document, values, report);
    if (report.hasErrors()) {
      return new ParseResult(report, null);
    }
    DocumentChecks.check(document, options, stagingPolicy, report);
    io.gantry.jsdl.farm.TaskFarmSpec farm =
        io.gantry.jsdl.internal.TaskFarmReader.read(document, options, report);
    if (report.hasErrors()) {
      return new ParseResult(report, null);
    }
    return new ParseResult(
        report, bind(document, report, farm, template.orElse(null)), document, positions);
  }

  private static JsdlJob bind(
      Document document,
      ValidationReport report,
      io.gantry.jsdl.farm.TaskFarmSpec farm,
      JobTemplate template) {
    try {
      JAXBElement<JobDefinitionType> root =
          JsdlBinding.context().createUnmarshaller().unmarshal(document, JobDefinitionType.class);
      return new JsdlJob(root, farm, template);
    } catch (JAXBException e) {
      report.error(
          0, 0, "JobDefinition", "the valid document could not be bound to the model: " + e);
      return null;
    }
  }

  private ParseResult refusedAsTooLarge() {
    ValidationReport report = new ValidationReport();
    report.error(
        0,
        0,
        "",
        "the document is larger than the limit of "
            + options.maxBytes()
            + " bytes; a job description is normally a few KiB, so it is refused unread");
    return new ParseResult(report, null);
  }
}
