package io.gantry.jsdl;

import io.gantry.jsdl.internal.JsdlBinding;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import java.io.OutputStream;
import java.io.StringWriter;

/**
 * Writes a job back to XML with the usual prefixes (jsdl, jsdl-posix, jsdl-spmd, gx), so that
 * {@code parse(write(parse(doc)))} gives the same model as {@code parse(doc)}. Foreign extension
 * elements are written back as they were read.
 */
public final class JsdlWriter {
  private JsdlWriter() {}

  public static String write(JsdlJob job) {
    StringWriter out = new StringWriter();
    try {
      marshaller().marshal(job.element(), out);
    } catch (JAXBException e) {
      throw new IllegalStateException("the job cannot be written as XML: " + e, e);
    }
    return out.toString();
  }

  /** Writes UTF-8 XML; does not close the stream. */
  public static void write(JsdlJob job, OutputStream out) {
    try {
      marshaller().marshal(job.element(), out);
    } catch (JAXBException e) {
      throw new IllegalStateException("the job cannot be written as XML: " + e, e);
    }
  }

  private static Marshaller marshaller() throws JAXBException {
    Marshaller marshaller = JsdlBinding.context().createMarshaller();
    marshaller.setProperty(Marshaller.JAXB_FORMATTED_OUTPUT, true);
    marshaller.setProperty(Marshaller.JAXB_ENCODING, "UTF-8");
    marshaller.setProperty("org.glassfish.jaxb.namespacePrefixMapper", JsdlBinding.prefixMapper());
    return marshaller;
  }
}
