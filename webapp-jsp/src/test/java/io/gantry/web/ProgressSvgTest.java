package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.JobProgress;
import java.io.StringReader;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/** The live-results plot: the headline's estimate through its checkpoints and its 95% band. */
class ProgressSvgTest {
  private static final String FILE =
      JobProgress.HEADER
          + "\n1000,4000,scenarios,VaR 0.99 BANK,100,10\n"
          + "1000,4000,scenarios,ES 0.99 BANK,130,12\n"
          + "2000,4000,scenarios,VaR 0.99 BANK,104,5\n"
          + "2000,4000,scenarios,ES 0.99 BANK,131,6\n";

  @Test
  void theHeadlineIsALineThroughItsCheckpointsInsideItsBand() throws Exception {
    JobProgress progress = JobProgress.parse(new StringReader(FILE), "progress.csv");
    String svg = ProgressSvg.render(progress);
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document d = f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    assertEquals(
        "Convergence of VaR 0.99 BANK", d.getElementsByTagName("title").item(0).getTextContent());
    assertTrue(!svg.contains("style="), "no style attributes (content security policy)");
    Element line = (Element) d.getElementsByTagName("polyline").item(0);
    String[] points = line.getAttribute("points").split(" ");
    assertEquals(2, points.length, svg);
    Element band = (Element) d.getElementsByTagName("polygon").item(0);
    String[] corners = band.getAttribute("points").split(" ");
    assertEquals(4, corners.length, svg);
    // at each checkpoint the line lies between the band's upper and lower edge (y grows down),
    // and the band narrows as the standard error falls from 10 to 5
    double[] width = new double[2];
    for (int i = 0; i < 2; i++) {
      double y = Double.parseDouble(points[i].split(",")[1]);
      double upper = Double.parseDouble(corners[i].split(",")[1]);
      double lower = Double.parseDouble(corners[3 - i].split(",")[1]);
      assertTrue(upper < y && y < lower, svg);
      width[i] = lower - upper;
    }
    assertEquals(0.5, width[1] / width[0], 1e-3);
    assertEquals(2, d.getElementsByTagName("circle").getLength());
    assertEquals(
        "2000", ((Element) d.getElementsByTagName("circle").item(1)).getAttribute("data-done"));

    ProgressRow row = ProgressRow.of(progress.latest().orElseThrow().figures().get(0));
    assertEquals(new ProgressRow("VaR 0.99 BANK", "104.00", "5.00", "4.81%"), row);
    assertEquals(
        "",
        ProgressSvg.render(
            JobProgress.parse(new StringReader(JobProgress.HEADER + "\n5,10,steps,,,\n"), "p")));
  }
}
