package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.io.StringWriter;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.commons.csv.CSVFormat;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

/** The node page's drawing and series, the Monte Carlo error bar, and the CSV writer's cells. */
class VarHistorySvgTest {
  private static final LocalDate D1 = LocalDate.of(2026, 11, 16);

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
  }

  /** VaR 100 on the 16th to 19th; losses of 500, 150, 90, 150 on those days and 999 on the 21st. */
  private static NodeSeries series() {
    Map<LocalDate, Double> var = new TreeMap<>();
    Map<LocalDate, Double> es = new TreeMap<>();
    Map<LocalDate, Double> pnl = new TreeMap<>();
    for (int d = 0; d < 4; d++) {
      var.put(D1.plusDays(d), 100.0);
      es.put(D1.plusDays(d), 120.0);
    }
    pnl.put(D1, -500.0); // no VaR the day before: not an observation
    pnl.put(D1.plusDays(1), -150.0);
    pnl.put(D1.plusDays(2), -90.0);
    pnl.put(D1.plusDays(3), -150.0);
    pnl.put(D1.plusDays(5), -999.0); // the 21st has no VaR; the business day before is the 19th
    return NodeSeries.of(var, es, pnl);
  }

  @Test
  void aLossBeyondTheVarOfTheBusinessDayBeforeIsAnExceptionAndOnlyThat() {
    NodeSeries s = series();
    assertEquals(
        List.of(D1.plusDays(1), D1.plusDays(3), D1.plusDays(5)),
        s.days().stream().filter(NodeSeries.Day::exception).map(NodeSeries.Day::date).toList());
    assertEquals(4, s.observations());
  }

  @Test
  void theDrawingIsWellFormedEscapedAndMarksEachException() throws Exception {
    String svg = VarHistorySvg.render("BANK/<desk & \"co\">", "99%", series());
    Document d = parse(svg); // well-formed: the node's markup characters are escaped
    assertTrue(
        d.getElementsByTagName("title").item(0).getTextContent().contains("<desk & \"co\">"));
    assertEquals(
        3,
        d.getElementsByTagName("circle").getLength() - 1,
        "three exceptions and the legend's dot");
    assertFalse(svg.contains("style="), "presentation attributes only: the CSP forbids style");
    assertEquals(
        "", VarHistorySvg.render("BANK", "99%", NodeSeries.of(Map.of(), Map.of(), Map.of())));
  }

  @Test
  void pixelCoordinatesAreWrittenAsPercentPointOneFWritesThem() {
    for (double v : new double[] {0, 0.04, 0.05, 12.34, -0.04, -7.25, 899.96, -123.449}) {
      StringBuilder out = new StringBuilder();
      VarHistorySvg.fixed(out, v);
      double expected = Double.parseDouble(String.format(java.util.Locale.ROOT, "%.1f", v));
      assertEquals(expected, Double.parseDouble(out.toString()), 0.1 + 1e-9, String.valueOf(v));
      assertTrue(out.toString().matches("-?[0-9]+\\.[0-9]"), out.toString());
    }
  }

  @Test
  void dateTicksFallOnFirstsOfMonthsAtMostEight() {
    List<LocalDate> ticks =
        VarHistorySvg.dateTicks(LocalDate.of(2021, 11, 22), LocalDate.of(2026, 11, 20));
    assertTrue(ticks.size() <= 8 && ticks.size() >= 4, ticks.toString());
    assertTrue(
        ticks.stream().allMatch(t -> t.getDayOfMonth() == 1 && t.getMonthValue() == 1),
        ticks.toString());
    assertEquals(
        List.of(LocalDate.of(2026, 10, 1), LocalDate.of(2026, 11, 1)),
        VarHistorySvg.dateTicks(LocalDate.of(2026, 9, 20), LocalDate.of(2026, 11, 20)));
  }

  @Test
  void theErrorBarIsDrawnOnlyForAnEstimateWithAStandardError() throws Exception {
    assertEquals("", ErrorBarSvg.render(100, null));
    assertEquals("", ErrorBarSvg.render(0, 1.0));
    Document d = parse(ErrorBarSvg.render(1000, 10.0));
    assertTrue(
        d.getElementsByTagName("title").item(0).getTextContent().contains("980.40 to 1,019.60"));
  }

  @Test
  void csvCellsThatASpreadsheetWouldRunArePrefixedAndNumbersAreNot() throws Exception {
    for (String formula : List.of("=1+2", "+1", "-A1", "@SUM(A1)", "\tx", "\rx", "-1+2")) {
      assertEquals("'" + formula, RiskCsv.safe(formula), formula);
    }
    for (String plain : List.of("-1,234.50", "-3.1%", "12", "", "BANK/EQ", "'quoted")) {
      assertEquals(plain, RiskCsv.safe(plain), plain);
    }
    RiskTable table =
        new RiskTable(
            "t",
            "caption",
            List.of(new RiskTable.Column("a,b", false), new RiskTable.Column("n", true)),
            List.of(List.of(RiskTable.Cell.of("say \"hi\"\nthere"), RiskTable.Cell.money(-5.0))),
            null);
    StringWriter out = new StringWriter();
    RiskCsv.write(out, table);
    assertEquals("\"a,b\",n\r\n\"say \"\"hi\"\"\nthere\",-5.00\r\n", out.toString());
    assertEquals(
        List.of("say \"hi\"\nthere", "-5.00"),
        CSVFormat.RFC4180.parse(new StringReader(out.toString())).getRecords().get(1).toList());
  }
}
