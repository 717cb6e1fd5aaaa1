package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** {@code gx:JobChain}: stages named by JobName, ordered, and resolved to job ids. */
class JobChainTest {
  static Element root(String xml) throws Exception {
    return HardenedXml.parse(xml).getDocumentElement();
  }

  static String chain(String... stages) {
    return "<gx:JobChain xmlns:gx=\"urn:gantry:jsdl:ext:1\""
        + " xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\">"
        + String.join("", stages)
        + "</gx:JobChain>";
  }

  static String stage(String name, String reads, String after) {
    return "<jsdl:JobDefinition><jsdl:JobDescription><jsdl:JobIdentification><jsdl:JobName>"
        + name
        + "</jsdl:JobName></jsdl:JobIdentification><jsdl:Application><posix:POSIXApplication>"
        + "<posix:Executable>/bin/true</posix:Executable></posix:POSIXApplication>"
        + "</jsdl:Application>"
        + (reads == null
            ? ""
            : "<jsdl:DataStaging><jsdl:FileName>in.txt</jsdl:FileName><jsdl:CreationFlag>"
                + "overwrite</jsdl:CreationFlag><jsdl:Source><jsdl:URI>gantry-job:"
                + reads
                + "</jsdl:URI></jsdl:Source></jsdl:DataStaging>")
        + (after == null
            ? ""
            : "<gx:Dependencies><gx:After>" + after + "</gx:After></gx:Dependencies>")
        + "</jsdl:JobDescription></jsdl:JobDefinition>";
  }

  @Test
  void stagesComeAfterWhatTheyNameAndReadAsJobsOnceResolved() throws Exception {
    JobChain chain =
        JobChain.read(
            root(
                chain(
                    stage("report", "price/stdout.txt", "price"),
                    stage("price", "extract/stdout.txt", "extract"),
                    stage("extract", null, null))));
    assertEquals(List.of("extract", "price", "report"), chain.names());
    assertEquals(Set.of("extract"), chain.stages().get(1).upstream());

    Map<String, String> ids = new LinkedHashMap<>();
    ids.put("extract", JobDependenciesTest.A);
    String price = chain.document(chain.stages().get(1), ids);
    ParseResult parsed = new JsdlParser().parse(price);
    assertTrue(parsed.isValid(), parsed.report().toString());
    assertEquals(List.of(JobDependenciesTest.A), parsed.validJob().afterJobs());
    assertTrue(price.contains("gantry-job:" + JobDependenciesTest.A + "/stdout.txt"), price);
  }

  @Test
  void whatIsNoChainIsRefusedNamingTheStage() {
    assertEquals(
        "two stages of the chain are named a; each stage needs its own JobName",
        refusal(chain(stage("a", null, null), stage("a", null, null))));
    assertEquals(
        "stages a, b wait for each other (a cycle)",
        refusal(chain(stage("a", null, "b"), stage("b", "a/stdout.txt", null))));
    assertEquals("stage a waits for or reads itself", refusal(chain(stage("a", null, "a"))));
    assertEquals("the chain holds no jsdl:JobDefinition", refusal(chain()));
    assertTrue(
        refusal(chain(stage(JobDependenciesTest.A, null, null))).contains("read as a job id"));
  }

  @Test
  void theNightlyChainExampleReadsAndEveryStageIsValid() throws Exception {
    JobChain chain =
        JobChain.read(root(Files.readString(Path.of("examples/nightly-var-chain.xml"))));
    assertEquals(List.of("var", "report", "backtest"), chain.names());
    Map<String, String> ids = Map.of("var", JobDependenciesTest.A);
    for (JobChain.Stage stage : chain.stages()) {
      ParseResult parsed = new JsdlParser().parse(chain.document(stage, ids));
      assertTrue(parsed.isValid(), stage.name() + ": " + parsed.report());
    }
    assertEquals(Set.of("business_date", "portfolio"), chain.stages().get(0).parameters());
  }

  @Test
  void theNightlyDeskChainExampleReadsAndEveryStageIsValid() throws Exception {
    JobChain chain =
        JobChain.read(root(Files.readString(Path.of("examples/nightly-var-desk-chain.xml"))));
    List<String> names = new ArrayList<>(List.of("scenarios"));
    for (String desk : List.of("EQ-US", "RATES-USD", "FX-G10", "EQ-EU", "EQ-JP", "RATES-EUR")) {
      names.add("price-" + desk);
    }
    names.addAll(List.of("aggregate", "report"));
    assertEquals(names, chain.names());
    Map<String, String> ids = new HashMap<>();
    for (int i = 0; i < names.size(); i++) { // distinct ids of the right form
      ids.put(names.get(i), JobDependenciesTest.A.substring(1) + JobDependenciesTest.A.charAt(i));
    }
    for (JobChain.Stage stage : chain.stages()) {
      ParseResult parsed = new JsdlParser().parse(chain.document(stage, ids));
      assertTrue(parsed.isValid(), stage.name() + ": " + parsed.report());
    }
    assertEquals(Set.of("business_date", "scenarios"), chain.stages().get(1).parameters());
  }

  private static String refusal(String xml) {
    return assertThrows(IllegalArgumentException.class, () -> JobChain.read(root(xml)))
        .getMessage();
  }
}
