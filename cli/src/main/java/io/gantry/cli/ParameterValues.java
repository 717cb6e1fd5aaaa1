package io.gantry.cli;

import io.gantry.cli.soap.JobDocument;
import io.gantry.cli.soap.ParameterValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Job template values from {@code --set NAME=VALUE} options (repeatable; the value may be empty and
 * may hold '='), and the messages that carry them.
 */
final class ParameterValues {
  private ParameterValues() {}

  /** The values in the order given; a malformed option or a name given twice is a usage error. */
  static Map<String, String> of(List<String> sets) {
    Map<String, String> values = new LinkedHashMap<>();
    if (sets == null) {
      return values;
    }
    for (String set : sets) {
      int eq = set.indexOf('=');
      if (eq <= 0) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO,
            "--set " + set + ": write NAME=VALUE, e.g. --set business_date=2026-11-20");
      }
      String name = set.substring(0, eq).strip();
      if (values.put(name, set.substring(eq + 1)) != null) {
        throw new CommandFailure(ExitCodes.USAGE_OR_IO, "--set " + name + " is given twice");
      }
    }
    return values;
  }

  /** The document with the values appended after it, as submitJob and addSchedule take them. */
  static JobDocument document(byte[] xml, Map<String, String> values) {
    JobDocument document = new JobDocument();
    document.setAny(JobDocuments.element(xml));
    document.getParameter().addAll(soap(values));
    return document;
  }

  static List<ParameterValue> soap(Map<String, String> values) {
    return values.entrySet().stream()
        .map(
            e -> {
              ParameterValue p = new ParameterValue();
              p.setName(e.getKey());
              p.setValue(e.getValue());
              return p;
            })
        .toList();
  }

  /** name=value, name=value: how a command line shows them. */
  static String text(List<ParameterValue> values) {
    StringBuilder text = new StringBuilder();
    for (ParameterValue p : values) {
      text.append(text.length() == 0 ? "" : ", ")
          .append(p.getName())
          .append('=')
          .append(p.getValue());
    }
    return text.toString();
  }

  static Map<String, String> json(List<ParameterValue> values) {
    Map<String, String> json = new LinkedHashMap<>();
    values.forEach(p -> json.put(p.getName(), p.getValue()));
    return json;
  }
}
