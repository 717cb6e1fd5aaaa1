package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** JSDL 1.0 documents written for other systems, the 2005/04 draft namespace, and DOM input. */
class StandardJsdlTest {
  static final String WITH_FOREIGN_EXTENSIONS =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <JobDefinition xmlns="http://schemas.ggf.org/jsdl/2005/11/jsdl"
          xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix" xmlns:o="urn:other:grid">
        <JobDescription o:priority="high">
          <JobIdentification><JobName>other-grid</JobName><o:Tag>x</o:Tag></JobIdentification>
          <Application>
            <posix:POSIXApplication>
              <posix:Executable>/bin/date</posix:Executable>
              <posix:Output>date.txt</posix:Output>
            </posix:POSIXApplication>
          </Application>
          <Resources>
            <TotalCPUCount><Range><LowerBound>1</LowerBound><UpperBound>4</UpperBound></Range></TotalCPUCount>
            <o:Accelerator kind="none"/>
          </Resources>
          <DataStaging name="in1">
            <FileName>input.dat</FileName>
            <FilesystemName>HOME</FilesystemName>
            <CreationFlag>append</CreationFlag>
            <Source><URI>https://grid.example.org/data/input.dat</URI><o:Mirror>m</o:Mirror></Source>
          </DataStaging>
          <o:Accounting><o:Project>risk</o:Project></o:Accounting>
        </JobDescription>
        <o:Signature>abc</o:Signature>
      </JobDefinition>
      """;

  static final String SPMD_JOB =
      """
      <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
          xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"
          xmlns:spmd="http://schemas.ogf.org/jsdl/2007/02/jsdl-spmd">
        <jsdl:JobDescription>
          <jsdl:Application>
            <spmd:SPMDApplication>
              <posix:Executable>bin/solver</posix:Executable>
              <posix:Argument>-v</posix:Argument>
              <spmd:NumberOfProcesses>16</spmd:NumberOfProcesses>
              <spmd:ProcessesPerHost>4</spmd:ProcessesPerHost>
              <spmd:SPMDVariation>http://www.ogf.org/jsdl/2007/02/jsdl-spmd/MPI</spmd:SPMDVariation>
            </spmd:SPMDApplication>
          </jsdl:Application>
        </jsdl:JobDescription>
      </jsdl:JobDefinition>
      """;

  @Test
  void foreignExtensionsAreWarningsNotErrors() {
    ParseResult result = new JsdlParser().parse(WITH_FOREIGN_EXTENSIONS);
    assertTrue(result.isValid(), result.report().toString());
    String d = "JobDefinition/JobDescription/";
    assertEquals(
        List.of(
            "line 5:53 "
                + d
                + "JobIdentification/Tag: unknown extension element Tag (namespace urn:other:grid) is ignored by Gantry",
            "line 14:7 "
                + d
                + "Resources/Accelerator: unknown extension element Accelerator (namespace urn:other:grid) is ignored by Gantry",
            "line 20:65 "
                + d
                + "DataStaging/Source/Mirror: unknown extension element Mirror (namespace urn:other:grid) is ignored by Gantry",
            "line 22:5 "
                + d
                + "Accounting: unknown extension element Accounting (namespace urn:other:grid) is ignored by Gantry",
            "line 24:3 JobDefinition/Signature: unknown extension element Signature (namespace urn:other:grid) is ignored by Gantry"),
        result.report().warnings().stream().map(Problem::toString).toList());
    JsdlJob job = result.validJob();
    assertEquals("/bin/date", job.posixApplication().orElseThrow().getExecutable().getValue());
    assertEquals(
        "https://grid.example.org/data/input.dat", job.dataStaging().get(0).getSource().getURI());
    assertEquals(
        4.0,
        job.description()
            .getResources()
            .getTotalCPUCount()
            .getRange()
            .get(0)
            .getUpperBound()
            .getValue());
  }

  @Test
  void spmdApplicationsParse() {
    JsdlJob job = new JsdlParser().parse(SPMD_JOB).validJob();
    assertEquals(
        16, job.spmdApplication().orElseThrow().getNumberOfProcesses().getValue().intValue());
  }

  @Test
  void spmdProcessCountMustBePositive() {
    ParseResult result = new JsdlParser().parse(SPMD_JOB.replace(">16<", ">0<"));
    assertEquals(
        "line 9:9 JobDefinition/JobDescription/Application/SPMDApplication/NumberOfProcesses:"
            + " '0' is too small; the least allowed is 1\n",
        result.report().toString());
  }

  @Test
  void rangesHoldNumbers() {
    ParseResult result =
        new JsdlParser()
            .parse(WITH_FOREIGN_EXTENSIONS.replace("<UpperBound>4<", "<UpperBound>four<"));
    assertEquals(
        List.of(
            "line 13:55 JobDefinition/JobDescription/Resources/TotalCPUCount/Range/UpperBound:"
                + " 'four' is not a number"),
        result.report().errors().stream().map(Problem::toString).toList());
  }

  @Test
  void standardStagedFilesStayInTheJobDirectory() {
    ParseResult result =
        new JsdlParser().parse(WITH_FOREIGN_EXTENSIONS.replace(">input.dat<", ">/etc/passwd<"));
    assertEquals(
        List.of(
            "line 17:7 JobDefinition/JobDescription/DataStaging/FileName: '/etc/passwd' is an absolute"
                + " path; staged files live in the job directory, so give a path relative to it (e.g. 'passwd')"),
        result.report().errors().stream().map(Problem::toString).toList());
  }

  @Test
  void theDraftNamespaceIsReadAsJsdl10WithAWarning() {
    String draft =
        SPMD_JOB.replace(
            "xmlns:jsdl=\"" + JsdlNamespaces.JSDL + "\"",
            "xmlns:jsdl=\"" + JsdlNamespaces.JSDL_DRAFT_2005_04 + "\"");
    ParseResult result = new JsdlParser().parse(draft);
    assertTrue(result.isValid(), result.report().toString());
    assertEquals(
        "warning: line 1:1 JobDefinition: the draft JSDL namespace http://schemas.ggf.org/jsdl/2005/04/jsdl"
            + " is read as http://schemas.ggf.org/jsdl/2005/11/jsdl; change the document to the JSDL 1.0 namespace\n",
        result.report().toString());
    assertNull(
        ModelEquality.difference(
            new JsdlParser().parse(SPMD_JOB).validJob().element(), result.validJob().element()));
  }

  @Test
  void allowedRootsAdmitAnAbsoluteWorkingDirectory() {
    String job =
        JsdlDocuments.baseJob()
            .replace("<gx:WorkingDirectory>run<", "<gx:WorkingDirectory>/bgl/jdoe/bin<");
    assertTrue(
        new JsdlParser(ParserOptions.defaults().withAllowedRoots(List.of(Path.of("/bgl"))))
            .parse(job)
            .isValid());
    assertEquals(
        List.of(
            "line 11:9 JobDefinition/JobDescription/Application/MpirunApplication/WorkingDirectory:"
                + " '/bgl/jdoe/bin' is outside the job directory and the allowed directories (/scratch, /data)"
                + "; give a path relative to the job directory"),
        new JsdlParser(
                ParserOptions.defaults()
                    .withAllowedRoots(List.of(Path.of("/scratch"), Path.of("/data"))))
            .parse(job).report().errors().stream().map(Problem::toString).toList());
  }

  @Test
  void aJobDefinitionElementFromASoapBodyParses() throws Exception {
    String envelope =
        "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
            + "<submit xmlns=\"urn:gantry:service:1\">"
            + SPMD_JOB
            + "</submit></soap:Body></soap:Envelope>";
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document soap =
        factory
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(envelope.getBytes(StandardCharsets.UTF_8)));
    Element jobDefinition =
        (Element) soap.getElementsByTagNameNS(JsdlNamespaces.JSDL, "JobDefinition").item(0);
    ParseResult result = new JsdlParser().parse(jobDefinition);
    assertTrue(result.isValid(), result.report().toString());
    assertEquals(
        "bin/solver", result.validJob().spmdApplication().orElseThrow().getExecutable().getValue());
  }

  @Test
  void aDocumentThatIsNotXmlSaysSo() {
    ParseResult result = new JsdlParser().parse("hello");
    assertEquals(
        "line 1:1 this is not an XML document (Content is not allowed in prolog.)\n",
        result.report().toString());
  }
}
