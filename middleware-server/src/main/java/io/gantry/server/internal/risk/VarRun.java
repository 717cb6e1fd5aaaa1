package io.gantry.server.internal.risk;

import java.time.Instant;
import java.time.LocalDate;

/**
 * The run that produced a figure: one row of {@code var_run} (mcvar's run.csv,
 * node-programs/README.md), and when its results were staged out.
 *
 * @param runId the run id, which is the Gantry job id of the run
 * @param stagedOutAt when the job's stage-out committed its last step (the stage-out ledger), or
 *     null where the results were loaded some other way
 */
public record VarRun(
    String runId,
    LocalDate businessDate,
    String method,
    int horizonDays,
    long scenarios,
    long seed,
    Integer lookbackDays,
    Double ewmaLambda,
    String baseCurrency,
    String confidenceLevels,
    String programVersion,
    LocalDate stressFrom,
    LocalDate stressTo,
    Instant stagedOutAt) {}
