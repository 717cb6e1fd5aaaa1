package io.gantry.jsdl.internal;

import io.gantry.jsdl.ValidationReport;
import io.gantry.jsdl.internal.SchemaValidation.SchemaError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Turns the validator's coded messages ({@code cvc-complex-type.2.4.a: Invalid content was found
 * starting with element ...}) into sentences a job's author can act on. Codes not translated here
 * keep the validator's text without the code.
 */
final class SchemaMessages {
  private static final Pattern CODE = Pattern.compile("^(cvc-[\\w.-]+?):\\s*(.*)$", Pattern.DOTALL);
  private static final Pattern UNEXPECTED =
      Pattern.compile(
          "Invalid content was found starting with element '(.+?)'\\. One of '\\{(.*)\\}' is expected\\.");
  private static final Pattern INCOMPLETE =
      Pattern.compile(
          "The content of element '(.+?)' is not complete\\. One of '\\{(.*)\\}' is expected\\.");
  private static final Pattern NOTHING_MORE =
      Pattern.compile(
          "Invalid content was found starting with element '(.+?)'\\. No child element.*");
  private static final Pattern BAD_VALUE =
      Pattern.compile("'(.*)' is not a valid value for '(.+?)'\\.", Pattern.DOTALL);
  private static final Pattern ENUMERATION =
      Pattern.compile(
          "Value '(.*)' is not facet-valid with respect to enumeration '\\[(.*)\\]'.*",
          Pattern.DOTALL);
  private static final Pattern BOUND =
      Pattern.compile(
          "Value '(.*)' is not facet-valid with respect to (min|max)Inclusive '(.+?)'.*",
          Pattern.DOTALL);
  private static final Pattern ATTRIBUTE_NOT_ALLOWED =
      Pattern.compile("Attribute '(.+?)' is not allowed.*");
  private static final Pattern ATTRIBUTE_ON_SIMPLE =
      Pattern.compile(".*the attribute, '(.+?)' was found.*", Pattern.DOTALL);
  private static final Pattern ATTRIBUTE_MISSING =
      Pattern.compile("Attribute '(.+?)' must appear.*");
  private static final Pattern ATTRIBUTE_VALUE =
      Pattern.compile("The value '.*' of attribute '(.+?)'.*", Pattern.DOTALL);
  private static final Pattern QUALIFIED = Pattern.compile("\\{?\"([^\"]*)\":([\\w.-]+)\\}?");
  private static final Pattern WILDCARD = Pattern.compile("WC\\[[^\\]]*\\]");

  private SchemaMessages() {}

  /** Adds one problem per schema error; the validator's echo of a value error is dropped. */
  static void report(List<SchemaError> errors, ValidationReport report) {
    for (int i = 0; i < errors.size(); i++) {
      SchemaError error = errors.get(i);
      Matcher code = CODE.matcher(error.message());
      String id = code.matches() ? code.group(1) : "";
      String detail = code.matches() ? code.group(2) : error.message();
      SchemaError next = i + 1 < errors.size() ? errors.get(i + 1) : null;
      String nextId = next == null ? "" : codeOf(next.message());
      boolean sameElement = next != null && next.element() == error.element();
      if (isValueError(id) && sameElement && nextId.equals("cvc-attribute.3")) {
        Matcher attribute =
            ATTRIBUTE_VALUE.matcher(next.message().substring(nextId.length() + 1).strip());
        String name = attribute.matches() ? attribute.group(1) : "?";
        add(report, error.element(), "attribute " + name + ": " + valueMessage(id, detail));
        i++;
      } else if (isValueError(id)) {
        add(report, error.element(), valueMessage(id, detail));
        if (sameElement
            && (nextId.equals("cvc-type.3.1.3") || nextId.equals("cvc-complex-type.2.2"))) {
          i++;
        }
      } else {
        structural(id, detail, error.element(), report);
      }
    }
  }

  private static String codeOf(String message) {
    Matcher code = CODE.matcher(message);
    return code.matches() ? code.group(1) : "";
  }

  private static boolean isValueError(String id) {
    return id.startsWith("cvc-datatype-valid")
        || id.startsWith("cvc-enumeration-valid")
        || id.startsWith("cvc-minLength-valid")
        || id.startsWith("cvc-pattern-valid")
        || id.startsWith("cvc-minInclusive-valid")
        || id.startsWith("cvc-maxInclusive-valid");
  }

  private static String valueMessage(String id, String detail) {
    Matcher m;
    if (id.startsWith("cvc-minLength-valid") || id.startsWith("cvc-pattern-valid")) {
      return "must not be empty";
    }
    if ((m = ENUMERATION.matcher(detail)).matches()) {
      return "'" + m.group(1) + "' is not allowed; use one of " + m.group(2);
    }
    if ((m = BOUND.matcher(detail)).matches()) {
      return "'"
          + m.group(1)
          + "' is too "
          + (m.group(2).equals("min") ? "small; the least" : "large; the largest")
          + " allowed is "
          + m.group(3);
    }
    if ((m = BAD_VALUE.matcher(detail)).matches()) {
      return "'" + m.group(1) + "' is not " + typeInWords(m.group(2), m.group(1));
    }
    return detail;
  }

  private static String typeInWords(String type, String value) {
    return switch (type) {
      case "int", "integer", "long", "positiveInteger", "nonNegativeInteger" ->
          value.strip().matches("[-+]?\\d+")
              ? "a whole number in the allowed range"
              : "a whole number";
      case "double", "decimal", "float" -> "a number";
      case "boolean" -> "true or false";
      case "anyURI" -> "a valid URI";
      case "NCName" -> "a valid name (letters, digits, '.', '-', '_'; no spaces or colons)";
      case "ID" -> "a valid identifier";
      default -> "a valid " + type;
    };
  }

  private static void structural(
      String id, String detail, Element element, ValidationReport report) {
    Matcher m;
    if ((m = UNEXPECTED.matcher(detail)).matches()) {
      List<String> expected = names(m.group(2));
      String found = localName(m.group(1));
      if (expected.size() == 1 && isRequired(m.group(2)) && !followedBy(element, expected.get(0))) {
        add(
            report,
            element,
            parentOf(element),
            expected.get(0) + " is missing (found " + found + " in its place)");
      } else {
        add(
            report,
            element,
            "unexpected element " + found + " here; expected " + inWords(expected));
      }
    } else if ((m = INCOMPLETE.matcher(detail)).matches()) {
      List<String> expected = names(m.group(2));
      add(
          report,
          element,
          (expected.size() == 1 ? "" : "one of ") + inWords(expected) + " is missing");
    } else if ((m = NOTHING_MORE.matcher(detail)).matches()) {
      add(
          report,
          element,
          "unexpected element "
              + localName(m.group(1))
              + " here; nothing more is allowed in "
              + parentOf(element).getLocalName());
    } else if ((m = ATTRIBUTE_NOT_ALLOWED.matcher(detail)).matches()) {
      add(report, element, "attribute " + m.group(1) + " is not allowed here");
    } else if ((m = ATTRIBUTE_ON_SIMPLE.matcher(detail)).matches()) {
      add(report, element, "attribute " + m.group(1) + " is not allowed here");
    } else if ((m = ATTRIBUTE_MISSING.matcher(detail)).matches()) {
      add(report, element, "attribute " + m.group(1) + " is missing");
    } else if (id.equals("cvc-complex-type.2.3")) {
      add(
          report,
          element,
          "text is not allowed directly inside "
              + element.getLocalName()
              + "; put it in a child element");
    } else if (!id.equals("cvc-type.3.1.3") && !id.equals("cvc-attribute.3")) {
      add(report, element, detail);
    }
  }

  /**
   * Whether the expected element comes later among the siblings: then the found element is an
   * intruder before it, not a stand-in for a missing one.
   */
  private static boolean followedBy(Element found, String expectedName) {
    for (Node n = found.getNextSibling(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && expectedName.equals(e.getLocalName())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a one-element expected list names an element our schemas always require. */
  private static boolean isRequired(String expected) {
    Matcher name = QUALIFIED.matcher(expected.strip());
    return name.matches() && RequiredElements.isRequired(name.group(1), name.group(2));
  }

  /** The expected elements as local names; a wildcard becomes words. */
  private static List<String> names(String list) {
    List<String> names = new ArrayList<>();
    for (String item : Arrays.asList(WILDCARD.matcher(list).replaceAll("#any").split(",\\s*"))) {
      String name =
          item.equals("#any") ? "an extension element from another namespace" : localName(item);
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  private static String localName(String qualified) {
    String name = QUALIFIED.matcher(qualified.strip()).replaceAll("$2");
    return name.substring(name.indexOf(':') + 1);
  }

  private static String inWords(List<String> names) {
    if (names.size() == 1) {
      return names.get(0);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " or "
        + names.get(names.size() - 1);
  }

  private static Element parentOf(Element element) {
    Node parent = element.getParentNode();
    return parent instanceof Element e ? e : element;
  }

  private static void add(ValidationReport report, Element element, String message) {
    add(report, element, element, message);
  }

  /** Located at {@code at}'s start tag, named by {@code named}'s path. */
  private static void add(ValidationReport report, Element at, Element named, String message) {
    SourcePosition position = SourcePosition.of(at);
    report.error(
        position.line(), position.column(), named == null ? "" : ElementPaths.of(named), message);
  }
}
