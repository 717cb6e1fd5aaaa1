package io.gantry.jsdl;

/**
 * The XML namespaces of a Gantry job description, for every module that reads or writes one (the
 * parser, the server, the wizard). The HPC File Staging Profile's credential namespaces are in
 * {@link StagingCredential}.
 */
public final class JsdlNamespaces {
  public static final String JSDL = "http://schemas.ggf.org/jsdl/2005/11/jsdl";
  public static final String POSIX = "http://schemas.ggf.org/jsdl/2005/11/jsdl-posix";
  public static final String SPMD = "http://schemas.ogf.org/jsdl/2007/02/jsdl-spmd";

  /** HPC Profile Application (GFD.111), as the specification writes it. */
  public static final String HPCPA = "http://schemas.ggf.org/jsdl/2006/07/jsdl-hpcpa";

  /** The same namespace as later OGF documents spell it; read as {@link #HPCPA}. */
  public static final String HPCPA_OGF = "http://schemas.ogf.org/jsdl/2006/07/jsdl-hpcpa";

  /** Gantry's extensions; prefix {@code gx} by convention. */
  public static final String GANTRY = "urn:gantry:jsdl:ext:1";

  /** The draft namespace of older job files (Blue Gene/L middleware era); read as {@link #JSDL}. */
  public static final String JSDL_DRAFT_2005_04 = "http://schemas.ggf.org/jsdl/2005/04/jsdl";

  private JsdlNamespaces() {}

  /** JSDL core as it is read: the 2005/11 namespace or the older draft's. */
  public static boolean isJsdl(String namespace) {
    return JSDL.equals(namespace) || JSDL_DRAFT_2005_04.equals(namespace);
  }

  /** True for the namespaces whose schemas Gantry knows; anything else is a foreign extension. */
  public static boolean isKnown(String namespace) {
    return JSDL.equals(namespace)
        || POSIX.equals(namespace)
        || SPMD.equals(namespace)
        || HPCPA.equals(namespace)
        || GANTRY.equals(namespace);
  }
}
