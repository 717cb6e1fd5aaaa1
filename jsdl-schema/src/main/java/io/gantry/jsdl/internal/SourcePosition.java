package io.gantry.jsdl.internal;

import org.w3c.dom.Element;

/** Where an element's start tag begins in the source text; kept as DOM user data. */
public record SourcePosition(int line, int column) {
  private static final String KEY = "io.gantry.jsdl.position";
  static final SourcePosition NONE = new SourcePosition(0, 0);

  void attachTo(Element element) {
    element.setUserData(KEY, this, null);
  }

  public static SourcePosition of(Element element) {
    Object position = element == null ? null : element.getUserData(KEY);
    return position instanceof SourcePosition p ? p : NONE;
  }
}
