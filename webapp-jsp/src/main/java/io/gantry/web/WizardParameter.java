package io.gantry.web;

import io.gantry.jsdl.JobParameter;
import io.gantry.jsdl.ParameterType;
import java.util.List;
import java.util.Optional;

/**
 * One parameter a job template declares ({@code gx:Parameters/gx:Parameter}) as the wizard edits
 * it: name, type, default and description as typed, with what is wrong with them. The wizard checks
 * each declaration by the parser's own rules ({@link JobParameter#validName}, {@link
 * ParameterType#canonical}) as the step is posted; the server's report is placed on top. Pages read
 * {@code values} and {@code errors} by name, and {@code inputType} for the value's field.
 */
public final class WizardParameter extends WizardFields {
  private static final long serialVersionUID = 1L;

  /** The fields of a declaration, in the order the step shows them. */
  static final List<String> FIELDS = List.of("name", "type", "default", "description");

  /** The declared type, string when absent, as {@link ParameterType#named} reads it. */
  Optional<ParameterType> type() {
    return Optional.ofNullable(ParameterType.named(value("type")));
  }

  public String getName() {
    return value("name").strip();
  }

  /** The type's name as the schema spells it; what was written when the type is unknown. */
  public String getTypeName() {
    return type().map(ParameterType::xmlName).orElse(value("type"));
  }

  /** The HTML input a value of this parameter is typed into: date, number, checkbox or text. */
  public String getInputType() {
    return switch (type().orElse(ParameterType.STRING)) {
      case DATE -> "date";
      case INTEGER, DECIMAL -> "number";
      case BOOLEAN -> "checkbox";
      case STRING -> "text";
    };
  }

  /** What a value looks like, for the value field's hint. */
  public String getExpected() {
    return type().orElse(ParameterType.STRING).expected();
  }

  /** Whether the declaration is one the parser accepts, so that it gets a value field. */
  boolean declared() {
    return JobParameter.validName(getName()) && type().isPresent() && fieldErrors().isEmpty();
  }

  /** Checks the declaration as the parser would; {@code taken} are the names declared before it. */
  void check(List<String> taken) {
    fieldErrors().clear();
    String name = getName();
    if (!JobParameter.validName(name)) {
      fieldErrors()
          .put(
              "name",
              name.isEmpty()
                  ? "A parameter needs a name."
                  : "The name " + JobParameter.NAME_RULE + ".");
    } else if (taken.contains(name)) {
      fieldErrors().put("name", "Parameter " + name + " is declared twice.");
    }
    Optional<ParameterType> type = type();
    if (type.isEmpty()) {
      fieldErrors()
          .put(
              "type",
              "Unknown type '"
                  + value("type")
                  + "'; use string, date, integer, decimal or boolean.");
    } else if (getValues().containsKey("default")) {
      try {
        type.get().canonical(value("default"));
      } catch (IllegalArgumentException e) {
        fieldErrors().put("default", "The default " + e.getMessage() + ".");
      }
    }
    WizardForm.check("description", value("description"))
        .ifPresent(message -> fieldErrors().put("description", message));
  }
}
