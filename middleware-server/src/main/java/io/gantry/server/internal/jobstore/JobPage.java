package io.gantry.server.internal.jobstore;

import java.util.List;

/** One page of a listing, newest first, with the number of jobs matching in all. */
public record JobPage(long total, List<JobRecord> jobs) {
  public JobPage {
    jobs = List.copyOf(jobs);
  }
}
