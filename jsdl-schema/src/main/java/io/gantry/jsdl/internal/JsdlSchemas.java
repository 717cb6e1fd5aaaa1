package io.gantry.jsdl.internal;

import java.io.InputStream;
import java.net.URL;
import javax.xml.XMLConstants;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.w3c.dom.ls.LSInput;
import org.xml.sax.SAXException;

/**
 * The compiled schemas (JSDL core, POSIX, SPMD, HPC Profile Application, Gantry's extensions),
 * loaded once from the classpath. The Schema is immutable and thread-safe; every validation makes
 * its own handler.
 */
public final class JsdlSchemas {
  static final String DIRECTORY = "/io/gantry/jsdl/xsd/";

  /** In import order: a schema comes after the ones it imports. */
  static final String[] FILES = {
    "jsdl.xsd", "jsdl-posix.xsd", "jsdl-spmd.xsd", "jsdl-hpcpa.xsd", "gantry-jsdl-ext.xsd"
  };

  private static final Schema SCHEMA = load();

  private JsdlSchemas() {}

  public static Schema schema() {
    return SCHEMA;
  }

  static URL resource(String file) {
    URL url = JsdlSchemas.class.getResource(DIRECTORY + file);
    if (url == null) {
      throw new IllegalStateException(
          "schema " + DIRECTORY + file + " is missing from the classpath");
    }
    return url;
  }

  private static Schema load() {
    SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    // imports between our schemas are served from the classpath, never fetched
    factory.setResourceResolver(
        (type, namespace, publicId, systemId, baseUri) ->
            systemId == null
                ? null
                : classpathInput(systemId.substring(systemId.lastIndexOf('/') + 1)));
    Source[] sources = new Source[FILES.length];
    for (int i = 0; i < FILES.length; i++) {
      sources[i] = new StreamSource(resource(FILES[i]).toExternalForm());
    }
    try {
      return factory.newSchema(sources);
    } catch (SAXException e) {
      throw new IllegalStateException("Gantry's JSDL schemas do not compile: " + e.getMessage(), e);
    }
  }

  private static LSInput classpathInput(String file) {
    URL url = JsdlSchemas.class.getResource(DIRECTORY + file);
    if (url == null) {
      return null;
    }
    return new ClasspathInput(url);
  }

  /** An LSInput over one of our schema files. */
  private record ClasspathInput(URL url) implements LSInput {
    @Override
    public InputStream getByteStream() {
      try {
        return url.openStream();
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot read " + url, e);
      }
    }

    @Override
    public String getSystemId() {
      return url.toExternalForm();
    }

    @Override
    public java.io.Reader getCharacterStream() {
      return null;
    }

    @Override
    public void setCharacterStream(java.io.Reader r) {}

    @Override
    public void setByteStream(InputStream s) {}

    @Override
    public String getStringData() {
      return null;
    }

    @Override
    public void setStringData(String s) {}

    @Override
    public void setSystemId(String s) {}

    @Override
    public String getPublicId() {
      return null;
    }

    @Override
    public void setPublicId(String s) {}

    @Override
    public String getBaseURI() {
      return null;
    }

    @Override
    public void setBaseURI(String s) {}

    @Override
    public String getEncoding() {
      return null;
    }

    @Override
    public void setEncoding(String s) {}

    @Override
    public boolean getCertifiedText() {
      return false;
    }

    @Override
    public void setCertifiedText(boolean b) {}
  }
}
