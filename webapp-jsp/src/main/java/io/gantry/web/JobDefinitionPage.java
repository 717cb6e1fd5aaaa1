package io.gantry.web;

import io.gantry.jsdl.HardenedXml;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.JobNotFoundFault;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Element;

/**
 * A job's definition as the API gives it (secrets redacted): shown escaped in a page, or with
 * {@code ?download=1} as a JSDL file to save.
 */
final class JobDefinitionPage {
  private JobDefinitionPage() {}

  static void show(
      HttpServletRequest request,
      HttpServletResponse response,
      JobManagementService jobs,
      String id)
      throws JobNotFoundFault, ServletException, IOException {
    JobRow job = JobRow.of(jobs.getJobStatus(id));
    String xml = xml(jobs.getJobDefinition(id).getJobDefinition());
    if ("1".equals(request.getParameter("download"))) {
      response.setContentType("application/xml; charset=UTF-8");
      response.setHeader("Content-Disposition", "attachment; filename=\"job-" + id + ".jsdl\"");
      response.getOutputStream().write(xml.getBytes(StandardCharsets.UTF_8));
      return;
    }
    request.setAttribute("job", job);
    request.setAttribute("definition", xml);
    Pages.render(
        request,
        response,
        "job-definition",
        "Definition of " + (job.name().isEmpty() ? id : job.name()));
  }

  private static String xml(Element element) {
    try {
      Transformer t = HardenedXml.transformerFactory().newTransformer();
      t.setOutputProperty(OutputKeys.INDENT, "yes");
      t.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
      StringWriter out = new StringWriter();
      t.transform(new DOMSource(element), new StreamResult(out));
      return out.toString().replaceAll("(?m)^[ \\t]*\\R", "");
    } catch (TransformerException e) {
      throw new IllegalStateException(
          "cannot write the job definition as XML: " + e.getMessage(), e);
    }
  }
}
