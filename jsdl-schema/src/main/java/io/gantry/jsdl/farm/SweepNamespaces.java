package io.gantry.jsdl.farm;

/** The namespaces of the OGF JSDL Parameter Sweep extension (GFD.149). */
public final class SweepNamespaces {
  /** Sweep, Assignment, DocumentNode, NamespaceBinding, Match; prefix {@code sweep}. */
  public static final String SWEEP = "http://schemas.ogf.org/jsdl/2009/03/sweep";

  /** The functions: Values/Value, LoopInteger/Exception; prefix {@code sweepfunc}. */
  public static final String FUNCTIONS = "http://schemas.ogf.org/jsdl/2009/03/sweep/functions";

  private SweepNamespaces() {}

  public static boolean isSweep(String namespace) {
    return SWEEP.equals(namespace) || FUNCTIONS.equals(namespace);
  }
}
