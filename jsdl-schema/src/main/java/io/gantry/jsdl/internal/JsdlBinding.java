package io.gantry.jsdl.internal;

import io.gantry.jsdl.JsdlNamespaces;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import java.util.Map;
import org.glassfish.jaxb.runtime.marshaller.NamespacePrefixMapper;

/** The JAXB context over the generated model, built once (it is thread-safe and costly). */
public final class JsdlBinding {
  private static final String PACKAGES =
      "io.gantry.jsdl.model.core:io.gantry.jsdl.model.posix"
          + ":io.gantry.jsdl.model.spmd:io.gantry.jsdl.model.hpcpa:io.gantry.jsdl.model.ext";
  private static final JAXBContext CONTEXT = create();

  /** The prefixes users know from the standard and our examples. */
  static final Map<String, String> PREFIXES =
      Map.of(
          JsdlNamespaces.JSDL, "jsdl",
          JsdlNamespaces.POSIX, "jsdl-posix",
          JsdlNamespaces.SPMD, "jsdl-spmd",
          JsdlNamespaces.GANTRY, "gx");

  private JsdlBinding() {}

  public static JAXBContext context() {
    return CONTEXT;
  }

  public static Object prefixMapper() {
    return new NamespacePrefixMapper() {
      @Override
      public String getPreferredPrefix(String namespace, String suggestion, boolean requirePrefix) {
        return PREFIXES.getOrDefault(namespace, suggestion);
      }

      @Override
      public String[] getPreDeclaredNamespaceUris() {
        return new String[] {JsdlNamespaces.JSDL, JsdlNamespaces.GANTRY};
      }
    };
  }

  private static JAXBContext create() {
    try {
      return JAXBContext.newInstance(PACKAGES, JsdlBinding.class.getClassLoader());
    } catch (JAXBException e) {
      throw new IllegalStateException("the JSDL model cannot be bound: " + e, e);
    }
  }
}
