package io.gantry.server.internal.service;

import io.gantry.jsdl.JobTemplate;
import io.gantry.jsdl.JsdlJob;
import io.gantry.server.api.ParameterValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Job template values between the API's {@link ParameterValue} lists and name-value maps. */
public final class TemplateValues {
  /** More values than any template declares in practice; a bound on what one call may carry. */
  public static final int MAX_VALUES = 200;

  private TemplateValues() {}

  /** The values as given; a name given twice, or without a name, is the caller's mistake. */
  public static Map<String, String> of(List<ParameterValue> given) {
    Map<String, String> values = new LinkedHashMap<>();
    if (given == null) {
      return values;
    }
    if (given.size() > MAX_VALUES) {
      throw new InvalidArgumentException(
          "parameter", "at most " + MAX_VALUES + " values per call, got " + given.size());
    }
    for (ParameterValue p : given) {
      if (p == null || p.name == null || p.name.isBlank()) {
        throw new InvalidArgumentException("parameter", "a value without a name");
      }
      if (p.value == null) {
        throw new InvalidArgumentException("parameter", p.name + " has no value");
      }
      if (values.put(p.name.strip(), p.value) != null) {
        throw new InvalidArgumentException("parameter", p.name + " is given twice");
      }
    }
    return values;
  }

  public static List<ParameterValue> toApi(Map<String, String> values) {
    List<ParameterValue> list = new ArrayList<>();
    values.forEach((name, value) -> list.add(new ParameterValue(name, value)));
    return list;
  }

  /** The values a filled job was made with, in the template's order; empty for a plain job. */
  public static Map<String, String> filled(JsdlJob job) {
    return job.template().map(JobTemplate::values).orElse(Map.of());
  }
}
