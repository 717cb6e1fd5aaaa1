package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VarResultsTest {
  @TempDir Path dir;

  private static final String SUMMARY =
      "run_id,confidence,var,expected_shortfall,pnl_mean,pnl_stddev,scenarios\n"
          + "r1,0.99,1234567.5,1500000.25,-120.5,400000,50000\n"
          + "r1,0.95,800000,1000000,-120.5,400000,50000\n";
  private static final String DISTRIBUTION =
      "run_id,bin,lower,upper,count\n" + "r1,1,0,100,7\nr1,0,-100,0,5\n";

  /** Writes {@code text} as blocked gzip: one member per line, as mcvar does. */
  private Path blockedGzip(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(file)) {
      for (String line : text.split("(?<=\n)")) {
        GZIPOutputStream member = new GZIPOutputStream(out);
        member.write(line.getBytes(StandardCharsets.UTF_8));
        member.finish();
      }
    }
    return file;
  }

  /**
   * The three files under mcvar's names ({@code .csv.gz}) as the page's opener would give them:
   * empty when not there.
   */
  private static VarResults read(Path summary, Path distribution, Path contributions)
      throws VarResults.Unreadable {
    return read(".gz", summary, distribution, contributions);
  }

  /** The same, named with {@code suffix} after {@code .csv}. */
  private static VarResults read(String suffix, Path summary, Path distribution, Path contributions)
      throws VarResults.Unreadable {
    java.util.Map<String, Path> files = new java.util.HashMap<>();
    files.put(VarResults.SUMMARY + suffix, summary);
    files.put(VarResults.DISTRIBUTION + suffix, distribution);
    files.put(VarResults.CONTRIBUTIONS + suffix, contributions);
    return VarResults.read(
        name -> {
          Path file = files.get(name);
          return file == null || !Files.exists(file)
              ? java.util.Optional.empty()
              : java.util.Optional.of(Files.newInputStream(file));
        });
  }

  @Test
  void readsLevelsByRisingConfidenceAndBinsByPnlFromBlockedGzip() throws Exception {
    VarResults r =
        read(blockedGzip("s.csv.gz", SUMMARY), blockedGzip("d.csv.gz", DISTRIBUTION), null);
    assertEquals(
        List.of("95%", "99%"), r.levels().stream().map(VarResults.Level::percent).toList());
    assertEquals(1234567.5, r.levels().get(1).var());
    assertEquals(50000, r.levels().get(1).scenarios());
    assertEquals(List.of(new VarResults.Bin(-100, 0, 5), new VarResults.Bin(0, 100, 7)), r.bins());
    assertEquals(List.of(), r.contributions(), "no contributions file: none");
  }

  @Test
  void ofAHierarchysResultsThePageShowsTheTopNode() throws Exception {
    // mcvar 2: a node column, every node of the hierarchy; ES and marginal columns beside
    String summary =
        "run_id,business_date,node,confidence,var,expected_shortfall,var_stderr,es_stderr,"
            + "pnl_mean,pnl_stddev,scenarios,diversification_var,diversification_es\n"
            + "r1,2026-11-20,BANK,0.95,800000,1000000,10,12,-120.5,400000,50000,5,6\n"
            + "r1,2026-11-20,BANK,0.99,1234567.5,1500000.25,20,24,-120.5,400000,50000,7,8\n"
            + "r1,2026-11-20,BANK/DESK,0.95,9,10,1,1,0,5,50000,,\n"
            + "r1,2026-11-20,BANK/DESK,0.99,11,12,1,1,0,5,50000,,\n";
    String distribution =
        "run_id,business_date,node,bin,lower,upper,count\n"
            + "r1,2026-11-20,BANK,0,-100,0,5\nr1,2026-11-20,BANK/DESK,0,-1,0,9\n";
    String contributions =
        "run_id,business_date,node,position_id,confidence,var_contribution,es_contribution,"
            + "marginal_var\n"
            + "r1,2026-11-20,BANK,P1,0.99,1234567.5,1500000.25,0.5\n"
            + "r1,2026-11-20,BANK/DESK,P1,0.99,11,12,0.5\n";
    VarResults r =
        read(
            blockedGzip("s.csv.gz", summary),
            blockedGzip("d.csv.gz", distribution),
            blockedGzip("c.csv.gz", contributions));
    assertEquals(
        List.of("95%", "99%"), r.levels().stream().map(VarResults.Level::percent).toList());
    assertEquals(1234567.5, r.levels().get(1).var());
    assertEquals(List.of(new VarResults.Bin(-100, 0, 5)), r.bins());
    assertEquals(1, r.contributions().size());
    assertEquals(1234567.5, r.contributions().get(0).contribution());
  }

  @Test
  void theTableShowsThousandsSeparators() throws Exception {
    VarResults r =
        read(blockedGzip("s.csv.gz", SUMMARY), blockedGzip("d.csv.gz", DISTRIBUTION), null);
    VarLevelRow row = VarLevelRow.of(r.levels().get(1));
    assertEquals("99%", row.confidence());
    assertEquals("1,234,567.50", row.var());
    assertEquals("1,500,000.25", row.expectedShortfall());
    assertEquals("-120.50", row.mean());
    assertEquals("50,000", row.scenarios());
  }

  @Test
  void aFractionalConfidenceKeepsItsDigits() {
    assertEquals("97.5%", new VarResults.Level(new BigDecimal("0.975"), 1, 1, 0, 1, 1).percent());
  }

  @Test
  void topContributionsAreTheLargestAtTheHighestConfidence() throws Exception {
    StringBuilder csv = new StringBuilder("run_id,position_id,confidence,contribution\n");
    for (int i = 1; i <= 15; i++) {
      csv.append("r1,P").append(i).append(",0.99,").append(i * 10).append('\n');
      csv.append("r1,P").append(i).append(",0.95,").append(1000 - i).append('\n');
    }
    VarResults r =
        read(
            blockedGzip("s.csv.gz", SUMMARY),
            blockedGzip("d.csv.gz", DISTRIBUTION),
            blockedGzip("c.csv.gz", csv.toString()));
    List<VarResults.Contribution> top = r.top(10);
    assertEquals(10, top.size());
    assertEquals("P15", top.get(0).positionId());
    assertEquals(60.0, top.get(9).contribution());
  }

  @Test
  void aMissingFileIsNamed() throws Exception {
    VarResults.Unreadable e =
        assertThrows(
            VarResults.Unreadable.class,
            () -> read(blockedGzip("s.csv.gz", SUMMARY), dir.resolve("absent.csv.gz"), null));
    assertEquals("results/pnl_distribution.csv(.gz) is not there", e.getMessage());
  }

  @Test
  void plainCsvResultsAreReadAsWellAsCompressedOnes() throws Exception {
    Path summary = Files.writeString(dir.resolve("s.csv"), SUMMARY);
    Path distribution = Files.writeString(dir.resolve("d.csv"), DISTRIBUTION);
    VarResults r = read("", summary, distribution, null);
    assertEquals(
        List.of("95%", "99%"), r.levels().stream().map(VarResults.Level::percent).toList());
    assertEquals(List.of(new VarResults.Bin(-100, 0, 5), new VarResults.Bin(0, 100, 7)), r.bins());
  }

  @Test
  void compressionIsToldByTheFilesFirstBytesNotByItsName() throws Exception {
    Path plainUnderGzipName = Files.writeString(dir.resolve("s.csv.gz"), SUMMARY);
    VarResults r = read(plainUnderGzipName, blockedGzip("d.csv.gz", DISTRIBUTION), null);
    assertEquals(1234567.5, r.levels().get(1).var());
  }

  @Test
  void aTruncatedFileIsNamed() throws Exception {
    byte[] whole = Files.readAllBytes(blockedGzip("whole.csv.gz", SUMMARY));
    Path cut =
        Files.write(dir.resolve("s.csv.gz"), java.util.Arrays.copyOf(whole, whole.length - 9));
    VarResults.Unreadable e =
        assertThrows(
            VarResults.Unreadable.class,
            () -> read(cut, blockedGzip("d.csv.gz", DISTRIBUTION), null));
    assertTrue(
        e.getMessage().startsWith("results/var_summary.csv.gz cannot be read"), e.getMessage());
  }

  @Test
  void aBadNumberOrAMissingColumnNamesTheLine() throws Exception {
    Path bad = blockedGzip("s.csv.gz", SUMMARY.replace("800000,", "lots,"));
    VarResults.Unreadable e =
        assertThrows(
            VarResults.Unreadable.class,
            () -> read(bad, blockedGzip("d.csv.gz", DISTRIBUTION), null));
    assertEquals("results/var_summary.csv.gz line 3: var is not a number: lots", e.getMessage());

    Path noCount = blockedGzip("d2.csv.gz", "run_id,bin,lower,upper\nr1,0,-1,0\n");
    e =
        assertThrows(
            VarResults.Unreadable.class,
            () -> read(blockedGzip("s2.csv.gz", SUMMARY), noCount, null));
    assertEquals("results/pnl_distribution.csv.gz line 2: no column count", e.getMessage());
  }

  @Test
  void anEmptySummaryIsRefused() throws Exception {
    VarResults.Unreadable e =
        assertThrows(
            VarResults.Unreadable.class,
            () ->
                read(
                    blockedGzip(
                        "s.csv.gz",
                        "run_id,confidence,var,expected_shortfall,pnl_mean,pnl_stddev,scenarios\n"),
                    blockedGzip("d.csv.gz", DISTRIBUTION),
                    null));
    assertEquals("results/var_summary.csv(.gz) has no rows", e.getMessage());
  }
}
