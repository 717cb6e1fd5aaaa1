package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.model.core.CreationFlagEnumeration;
import io.gantry.jsdl.model.core.DataStagingType;
import io.gantry.jsdl.model.core.SourceTargetType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/** The typed view of standard DataStaging that the server plans from, and the hardened parser. */
class StagingStepTest {

  @Test
  void theExampleJobsDataStagingReadsAsOneStageInAndOneStageOut() throws IOException {
    JsdlJob job = new JsdlParser().parse(Path.of("examples/posix-staging.jsdl")).validJob();
    List<StagingStep> steps = job.stagingSteps();
    assertEquals(2, steps.size());
    StagingStep in = steps.get(0);
    assertEquals(1, in.order());
    assertEquals("prices.csv", in.fileName());
    assertEquals("https://data.example.org/eod/prices.csv", in.source().orElseThrow().uri());
    assertTrue(in.target().isEmpty());
    assertTrue(in.deleteOnTermination());
    StagingStep out = steps.get(1);
    assertEquals("DataStaging 2 (FileName prices.sha256)", out.where());
    assertTrue(out.source().isEmpty());
    assertEquals(
        "sftp://archive.example.org/srv/archive/prices.sha256", out.target().orElseThrow().uri());
  }

  @Test
  void omittedElementsReadAsTheirDefaultsAndTheCredentialIsRead() {
    DataStagingType element = new DataStagingType();
    element.setFileName("  market.csv ");
    element.setFilesystemName("scratch");
    SourceTargetType source = new SourceTargetType();
    source.setURI(" sftp://alice@files.example/market.csv ");
    source.getAny().add(identityCredential("files-key"));
    element.setSource(source);

    StagingStep step = StagingStep.of(List.of(element)).get(0);
    assertEquals("market.csv", step.fileName());
    assertEquals(Optional.of("scratch"), step.fileSystemName());
    assertEquals(CreationFlagEnumeration.OVERWRITE, step.creationFlag());
    assertFalse(step.deleteOnTermination());
    StagingStep.Endpoint endpoint = step.source().orElseThrow();
    assertEquals("sftp://alice@files.example/market.csv", endpoint.uri());
    assertEquals("files-key", endpoint.credential().orElseThrow().identityRef());
  }

  @Test
  void aSourceWithoutUriIsNoEndpoint() {
    DataStagingType element = new DataStagingType();
    element.setFileName("a.csv");
    element.setCreationFlag(CreationFlagEnumeration.DONT_OVERWRITE);
    element.setSource(new SourceTargetType());
    StagingStep step = StagingStep.of(List.of(element)).get(0);
    assertTrue(step.source().isEmpty());
    assertEquals(CreationFlagEnumeration.DONT_OVERWRITE, step.creationFlag());
  }

  @Test
  void theHardenedParserRefusesADoctypeBeforeAnyEntityIsRead() {
    String xxe =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>";
    SAXException e = assertThrows(SAXException.class, () -> HardenedXml.parse(xxe));
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
  }

  private static Element identityCredential(String name) {
    Document doc = HardenedXml.newDocument();
    Element credential = doc.createElementNS(StagingCredential.HPC_FILE_STAGING, "ac:Credential");
    Element ref = doc.createElementNS(JsdlNamespaces.GANTRY, "gx:IdentityRef");
    ref.setTextContent(name);
    credential.appendChild(ref);
    return credential;
  }
}
