package io.gantry.server.scheduler;

import io.gantry.server.store.JobId;

/** What the scheduler needs to know of a job's plan: whose it is and how many slots it takes. */
public interface JobPlan {
  JobId jobId();

  /** Compute slots (MPI processes) the job holds while it runs. */
  int slots();
}
