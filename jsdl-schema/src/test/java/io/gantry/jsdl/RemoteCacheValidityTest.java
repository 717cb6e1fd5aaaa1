package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.model.ext.SCPDataStagingType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The stage-in cache of remote files: {@code CacheValidity} at the end of an SCPDataStaging, and
 * Gantry's {@code gx:CacheValidity} extension element inside a standard DataStaging.
 */
class RemoteCacheValidityTest {
  static final String GX = "xmlns:gx=\"urn:gantry:jsdl:ext:1\" ";

  static String standard(String inSource, String inTarget) throws Exception {
    return Files.readString(Path.of("examples/posix-staging.jsdl"))
        .replace("<JobDefinition ", "<JobDefinition " + GX)
        .replace(
            "<URI>https://data.example.org/eod/prices.csv</URI>\n      </Source>",
            "<URI>https://data.example.org/eod/prices.csv</URI>\n      </Source>" + inSource)
        .replace(
            "<URI>sftp://archive.example.org/srv/archive/prices.sha256</URI>\n      </Target>",
            "<URI>sftp://archive.example.org/srv/archive/prices.sha256</URI>\n      </Target>"
                + inTarget);
  }

  static String scp(String validity) throws Exception {
    return Files.readString(Path.of("examples/var-job.jsdl"))
        .replace(
            "<gx:TargetFileName>hosts.txt</gx:TargetFileName>",
            "<gx:TargetFileName>hosts.txt</gx:TargetFileName>" + validity);
  }

  @Test
  void aStandardDataStagingCarriesItsValidityInGantrysNamespace() throws Exception {
    ParseResult r =
        new JsdlParser().parse(standard("<gx:CacheValidity>PT4H</gx:CacheValidity>", ""));
    assertEquals(List.of(), r.report().errors(), r.report().toString());
    List<StagingStep> steps = r.validJob().stagingSteps();
    assertEquals("PT4H", steps.get(0).cacheValidity().orElseThrow().toString());
    assertEquals(Optional.empty(), steps.get(1).cacheValidity());
  }

  @Test
  void aNegativeValidityIsAnErrorAndOneOnAStageOutIsAWarning() throws Exception {
    ValidationReport negative =
        new JsdlParser().parse(standard("<gx:CacheValidity>-PT1H</gx:CacheValidity>", "")).report();
    assertTrue(
        negative.errors().stream()
            .anyMatch(p -> p.message().contains("must not be negative; PT0S means never cached")),
        negative.toString());
    ValidationReport out =
        new JsdlParser().parse(standard("", "<gx:CacheValidity>PT1H</gx:CacheValidity>")).report();
    assertEquals(List.of(), out.errors(), out.toString());
    assertTrue(
        out.warnings().stream().anyMatch(p -> p.message().contains("only a stage-in is cached")),
        out.toString());
    ValidationReport notDuration =
        new JsdlParser()
            .parse(standard("<gx:CacheValidity>4 hours</gx:CacheValidity>", ""))
            .report();
    assertTrue(
        notDuration.errors().stream().anyMatch(p -> p.message().contains("not a valid duration")),
        notDuration.toString());
  }

  @Test
  void anScpDataStagingCarriesItsValidityAfterCompression() throws Exception {
    ParseResult r = new JsdlParser().parse(scp("<gx:CacheValidity>P1D</gx:CacheValidity>"));
    assertEquals(List.of(), r.report().errors(), r.report().toString());
    SCPDataStagingType transmit = r.validJob().scpStageIn().get(0);
    assertEquals("P1D", transmit.getCacheValidity().toString());
    ValidationReport negative =
        new JsdlParser().parse(scp("<gx:CacheValidity>-P1D</gx:CacheValidity>")).report();
    assertTrue(
        negative.errors().stream().anyMatch(p -> p.message().contains("must not be negative")),
        negative.toString());
  }
}
