package io.gantry.jsdl.farm;

import java.util.List;

/**
 * GFD.149's Assignment: one function's values, each in turn written into every target.
 *
 * @param targets the DocumentNodes' matches, as places in the template
 * @param values what the function (Values or LoopInteger) produces, in order
 * @param inputName the name of this assignment's column in the task results ({@code sweep_1},
 *     {@code sweep_2}, ... in document order)
 */
public record SweepAssignment(List<SweepTarget> targets, List<String> values, String inputName) {
  public SweepAssignment {
    targets = List.copyOf(targets);
    values = List.copyOf(values);
  }
}
