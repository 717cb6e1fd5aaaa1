package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class PnlHistogramSvgTest {
  private static final List<VarResults.Bin> BINS =
      List.of(
          new VarResults.Bin(-2000, -1000, 10),
          new VarResults.Bin(-1000, 0, 40),
          new VarResults.Bin(0, 1000, 45),
          new VarResults.Bin(1000, 2000, 5));
  private static final List<VarResults.Level> LEVELS =
      List.of(
          new VarResults.Level(new BigDecimal("0.95"), 900, 1200, 10, 700, 100),
          new VarResults.Level(new BigDecimal("0.99"), 1600, 1800, 10, 700, 100));

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
  }

  private static List<Element> withClass(Document d, String tag, String cssClass) {
    NodeList all = d.getElementsByTagName(tag);
    List<Element> out = new java.util.ArrayList<>();
    for (int i = 0; i < all.getLength(); i++) {
      Element e = (Element) all.item(i);
      if ((" " + e.getAttribute("class") + " ").contains(" " + cssClass + " ")) {
        out.add(e);
      }
    }
    return out;
  }

  @Test
  void drawsOneBarPerBinWithHeightsInProportionToTheCounts() throws Exception {
    Document svg = parse(PnlHistogramSvg.render(BINS, LEVELS));
    List<Element> bars = withClass(svg, "rect", "bar");
    assertEquals(4, bars.size());
    double h40 = Double.parseDouble(bars.get(1).getAttribute("height"));
    double h10 = Double.parseDouble(bars.get(0).getAttribute("height"));
    assertEquals(4.0, h40 / h10, 0.01, "heights are rounded to 1/100 px");
    assertTrue(
        Double.parseDouble(bars.get(0).getAttribute("x"))
            < Double.parseDouble(bars.get(1).getAttribute("x")));
  }

  @Test
  void marksEachVarLevelAtMinusVarWithALabel() throws Exception {
    Document svg = parse(PnlHistogramSvg.render(BINS, LEVELS));
    List<Element> markers = withClass(svg, "g", "var-marker");
    assertEquals(2, markers.size());
    assertEquals(
        List.of("VaR 99%", "VaR 95%"),
        markers.stream()
            .map(m -> m.getElementsByTagName("text").item(0).getTextContent())
            .toList());
    // -VaR between the bins' edges: -1600 is 40% of the way from -2000 to 2000
    Element line99 = (Element) markers.get(0).getElementsByTagName("line").item(0);
    double x = Double.parseDouble(line99.getAttribute("x1"));
    double left = PnlHistogramSvg.LEFT;
    double right = PnlHistogramSvg.WIDTH - PnlHistogramSvg.RIGHT;
    assertEquals(left + 0.1 * (right - left), x, 0.01);
    assertEquals(line99.getAttribute("x1"), line99.getAttribute("x2"), "vertical");
  }

  @Test
  void isAccessibleAndScalesToTheWidth() throws Exception {
    Element root = parse(PnlHistogramSvg.render(BINS, LEVELS)).getDocumentElement();
    assertEquals("img", root.getAttribute("role"));
    assertEquals("100%", root.getAttribute("width"));
    assertEquals("0 0 800 360", root.getAttribute("viewBox"));
    assertTrue(root.getAttribute("aria-label").contains("profit and loss"));
    Element title = (Element) root.getElementsByTagName("title").item(0);
    assertEquals(title.getParentNode(), root, "the drawing's own title comes first");
    String desc = root.getElementsByTagName("desc").item(0).getTextContent();
    assertTrue(
        desc.contains("100 scenarios in 4 bins") && desc.contains("VaR 99% marked at -1,600"),
        desc);
    assertTrue(!PnlHistogramSvg.render(BINS, LEVELS).contains("style="), "no inline styles (CSP)");
  }

  @Test
  void axesHaveRoundTicksWithThousandsSeparators() throws Exception {
    Document svg = parse(PnlHistogramSvg.render(BINS, LEVELS));
    List<String> xLabels = texts(withClass(svg, "g", "x-axis").get(0));
    assertTrue(
        xLabels.containsAll(List.of("-2,000", "-1,000", "0", "1,000", "2,000")),
        xLabels.toString());
    List<String> yLabels = texts(withClass(svg, "g", "y-axis").get(0));
    assertTrue(yLabels.containsAll(List.of("0", "10", "20", "30", "40")), yLabels.toString());
  }

  private static List<String> texts(Element group) {
    NodeList texts = group.getElementsByTagName("text");
    List<String> out = new java.util.ArrayList<>();
    for (int i = 0; i < texts.getLength(); i++) {
      out.add(texts.item(i).getTextContent());
    }
    return out;
  }

  @Test
  void niceTicksAreOneTwoOrFiveTimesAPowerOfTen() {
    assertEquals(List.of(0.0, 10.0, 20.0, 30.0, 40.0, 50.0), SvgAxes.niceTicks(0, 50, 5));
    assertEquals(List.of(-1.0, -0.5, 0.0, 0.5, 1.0), SvgAxes.niceTicks(-1.2, 1.1, 5));
  }

  @Test
  void nothingToDrawWithoutBins() {
    assertEquals("", PnlHistogramSvg.render(List.of(), LEVELS));
  }
}
