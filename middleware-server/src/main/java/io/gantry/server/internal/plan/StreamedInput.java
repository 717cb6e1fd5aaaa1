package io.gantry.server.internal.plan;

import io.gantry.jsdl.StagingStep;
import io.gantry.jsdl.StreamDelivery;
import io.gantry.staging.UriTransfer;
import java.util.List;

/**
 * A stage-in the job's program reads while it arrives ({@code gx:Stream}, docs/workflows.md,
 * "Streaming between stages"): the transfer follows the producer's file into a copy of the
 * server's, and {@code delivery} says how the program sees it.
 *
 * @param transfer the stage-in, as it stands in the job's stage-in plan
 * @param delivery a FIFO or a growing file at the transfer's {@code FileName}
 */
public record StreamedInput(UriTransfer transfer, StreamDelivery delivery) {

  /** The streamed ones among {@code in}, the job's planned stage-ins, by their DataStaging. */
  static List<StreamedInput> of(List<StagingStep> steps, List<UriTransfer> in) {
    return steps.stream()
        .filter(step -> step.stream().isPresent())
        .flatMap(
            step ->
                in.stream()
                    .filter(t -> t.order() == step.order())
                    .map(t -> new StreamedInput(t, step.stream().get())))
        .toList();
  }
}
