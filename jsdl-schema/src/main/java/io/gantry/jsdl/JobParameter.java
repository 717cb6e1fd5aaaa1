package io.gantry.jsdl;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One parameter a job template declares ({@code gx:Parameters/gx:Parameter}).
 *
 * @param name referred to as <code>${name}</code> in the document's text and attributes
 * @param type what a value must be
 * @param defaultValue the value used when the submission gives none, in canonical form
 * @param description a line for the user (the wizard shows it beside the field)
 */
public record JobParameter(
    String name, ParameterType type, Optional<String> defaultValue, Optional<String> description) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  /** What a parameter's name must be, in the words of the parser's and the wizard's messages. */
  public static final String NAME_RULE =
      "must start with a letter or _ and hold only letters, digits and _ (at most 64)";

  /**
   * Whether {@code name} may name a parameter: one owner for the rule the parser applies and the
   * wizard checks as the user types.
   */
  public static boolean validName(String name) {
    return name != null && NAME.matcher(name).matches();
  }
}
