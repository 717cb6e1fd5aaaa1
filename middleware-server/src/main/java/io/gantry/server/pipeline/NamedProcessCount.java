package io.gantry.server.pipeline;

import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.model.core.ExactType;
import io.gantry.jsdl.model.core.RangeValueType;
import io.gantry.jsdl.model.core.ResourcesType;
import java.util.List;
import java.util.Optional;

/**
 * The process count a job of a named application asks for. A named application's job has no
 * application element to say it in, so it uses the standard's own words: Resources/TotalCPUCount
 * with a single Exact value (GFD.56 6.2.14). Anything else (ranges, several values) leaves the
 * application's default.
 */
final class NamedProcessCount {
  private NamedProcessCount() {}

  static Optional<Integer> requested(JsdlJob job) {
    ResourcesType resources = job.description().getResources();
    RangeValueType total = resources == null ? null : resources.getTotalCPUCount();
    if (total == null || total.getUpperBoundedRange() != null || total.getLowerBoundedRange() != null
        || !total.getRange().isEmpty()) {
      return Optional.empty();
    }
    List<ExactType> exact = total.getExact();
    if (exact.size() != 1) {
      return Optional.empty();
    }
    double value = exact.get(0).getValue();
    if (value < 1 || value > Integer.MAX_VALUE || value != Math.rint(value)) {
      return Optional.empty();
    }
    return Optional.of((int) value);
  }
}
