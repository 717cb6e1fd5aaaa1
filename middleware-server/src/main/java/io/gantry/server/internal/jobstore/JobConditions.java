package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a QUEUED job waits for before its stage-in may begin (job store version 12): the jobs it
 * depends on, fixed at submission, and a hold, set and lifted by its owner or an administrator.
 * Kept beside the jobs so that they survive a restart of the server.
 */
public final class JobConditions {
  private final Transactor tx;
  private final Clock clock;

  JobConditions(Transactor tx, Clock clock) {
    this.tx = tx;
    this.clock = clock;
  }

  /**
   * Records a new job's conditions before the job itself is stored (see the V12 migration: a job is
   * never seen without them). Nothing is written when there are none.
   */
  public void recordAtSubmission(JobId job, List<JobDependency> dependencies, String heldBy) {
    if (dependencies.isEmpty() && heldBy == null) {
      return;
    }
    tx.write(
        "record the dependencies of job " + job,
        c -> {
          insert(c, job, dependencies, heldBy);
          return null;
        });
  }

  /** {@link #recordAtSubmission}'s rows, in the caller's transaction (a chain stored at once). */
  void insert(java.sql.Connection c, JobId job, List<JobDependency> dependencies, String heldBy)
      throws java.sql.SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job_dependency (job_id, depends_on, kind) VALUES (?, ?, ?)")) {
      for (JobDependency d : dependencies.stream().distinct().toList()) {
        ps.setString(1, job.value());
        ps.setString(2, d.on().value());
        ps.setString(3, d.kind().word());
        ps.addBatch();
      }
      if (!dependencies.isEmpty()) {
        ps.executeBatch();
      }
    }
    if (heldBy != null) {
      insertHold(c, job, heldBy);
    }
  }

  /** The jobs {@code job} waits for, in the order they were named. */
  public List<JobDependency> dependencies(JobId job) {
    return tx.read(
        "read the dependencies of job " + job,
        c -> {
          List<JobDependency> all = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT depends_on, kind FROM gantry_job_dependency WHERE job_id = ?"
                      + " ORDER BY kind, depends_on")) {
            ps.setString(1, job.value());
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                all.add(
                    new JobDependency(
                        new JobId(rs.getString(1)), JobDependency.Kind.of(rs.getString(2))));
              }
            }
          }
          return all;
        });
  }

  /** Who holds the job, if anyone does. */
  public Optional<String> heldBy(JobId job) {
    return tx.read(
        "read the hold of job " + job,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT held_by FROM gantry_job_hold WHERE job_id = ?")) {
            ps.setString(1, job.value());
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  /** Holds the job; false if it was held already. */
  public boolean hold(JobId job, String by) {
    return tx.write(
        "hold job " + job,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT 1 FROM gantry_job_hold WHERE job_id = ?")) {
            ps.setString(1, job.value());
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                return false;
              }
            }
          }
          insertHold(c, job, by);
          return true;
        });
  }

  /** Lifts the job's hold; false if it was not held. */
  public boolean release(JobId job) {
    return tx.write(
        "release job " + job,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM gantry_job_hold WHERE job_id = ?")) {
            ps.setString(1, job.value());
            return ps.executeUpdate() > 0;
          }
        });
  }

  private void insertHold(java.sql.Connection c, JobId job, String by)
      throws java.sql.SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job_hold (job_id, held_by, held_at) VALUES (?, ?, ?)")) {
      ps.setString(1, job.value());
      ps.setString(2, by);
      JobRows.setInstant(ps, 3, clock.instant());
      ps.executeUpdate();
    }
  }
}
