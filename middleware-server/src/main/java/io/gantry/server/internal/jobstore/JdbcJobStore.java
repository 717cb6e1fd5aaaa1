package io.gantry.server.internal.jobstore;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.gantry.server.internal.jobstore.jdbc.JobEvents;
import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.OriginRows;
import io.gantry.server.internal.jobstore.jdbc.Owners;
import io.gantry.server.internal.jobstore.jdbc.PlanRows;
import io.gantry.server.internal.jobstore.jdbc.SchemaMigrations;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The job store on H2 or PostgreSQL through JDBC. Every state change is an {@code UPDATE ... WHERE
 * id = ? AND state = ?} plus its history row in one transaction; the row lock the UPDATE takes
 * makes a second, concurrent change of the same job wait and then find the state moved, so it
 * matches no row and reports false.
 */
public final class JdbcJobStore implements JobStore, AutoCloseable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(JdbcJobStore.class);

  private static final int TEXT_LIMIT = 4000;
  private static final int NAME_LIMIT = 255;

  private final Transactor tx;
  private final Clock clock;
  private final HikariDataSource ownedPool;
  private final UserAccounts users;
  private final JobConditions conditions;
  private final ScheduleStore schedules;
  private final SessionTokens sessionTokens;
  private final Outbox outbox;
  private final NotifySubscriptions subscriptions;

  /** Uses a data source the caller owns; brings its schema up to date first. */
  public JdbcJobStore(DataSource dataSource, Clock clock) {
    this(dataSource, clock, null);
  }

  private JdbcJobStore(DataSource dataSource, Clock clock, HikariDataSource ownedPool) {
    this.tx = new Transactor(dataSource); // checks the database can be written durably first
    SchemaMigrations.migrate(dataSource);
    this.clock = clock;
    this.ownedPool = ownedPool;
    this.users = new UserAccounts(tx);
    this.conditions = new JobConditions(tx, clock);
    this.schedules = new ScheduleStore(tx, clock);
    this.sessionTokens = new SessionTokens(tx);
    this.outbox = new Outbox(tx, clock);
    this.subscriptions = new NotifySubscriptions(tx);
  }

  /**
   * Calls {@code listener} after each durable write has committed (every change of a job's state is
   * one), on the writer's thread: it must be quick. Returns what removes it again.
   */
  public Runnable onDurableWrite(Runnable listener) {
    return tx.afterWrite(listener);
  }

  /** The notification outbox, whose job events commit with the changes they report. */
  public Outbox outbox() {
    return outbox;
  }

  /** The standing notification subscriptions (gantry notify). */
  public NotifySubscriptions subscriptions() {
    return subscriptions;
  }

  /** Whether the store holds any user or job (a store just created holds neither). */
  public boolean holdsData() {
    return tx.read(
        "check whether the job store holds data",
        c -> {
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT (SELECT COUNT(*) FROM gantry_user) + (SELECT COUNT(*) FROM"
                          + " gantry_job)");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1) > 0;
          }
        });
  }

  /** The audit trail as JSON lines (gantry-server audit export). */
  public AuditExport auditExport() {
    return new AuditExport(tx);
  }

  /** The dependencies and holds of jobs, kept in the same database. */
  public JobConditions jobConditions() {
    return conditions;
  }

  /** The user accounts kept in the same database. */
  public UserAccounts userAccounts() {
    return users;
  }

  /** The session tokens of gantry login, kept beside the users they belong to. */
  public SessionTokens sessionTokens() {
    return sessionTokens;
  }

  /**
   * Opens a connection pool on the configured database and migrates it; close the store to release
   * it.
   */
  public static JdbcJobStore open(JobStoreSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("gantry-job-store");
    config.setJdbcUrl(settings.jdbcUrl());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.maximumPoolSize());
    // a store that gives no connection in this time is failing (its database server stopped)
    config.setConnectionTimeout(settings.connectionTimeout().toMillis());
    HikariDataSource pool = new HikariDataSource(config);
    try {
      return new JdbcJobStore(pool, Clock.systemUTC(), pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /**
   * Proves the store can still be written durably, by rewriting one probe row; throws {@link
   * JobStoreException} when it cannot. Connections that failed are replaced first, so a store that
   * is back (space freed, read-write again) is used again without a restart.
   */
  public void probeWrite() {
    try {
      writeProbe();
    } catch (JobStoreException e) {
      // After a failed write, H2 closes its database and PostgreSQL may have ended the session:
      // the pooled connections are dead. New ones reopen the store if it is back.
      if (ownedPool == null || ownedPool.getHikariPoolMXBean() == null) {
        throw e;
      }
      ownedPool.getHikariPoolMXBean().softEvictConnections();
      writeProbe();
    }
  }

  private void writeProbe() {
    tx.write(
        "write the storage probe",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("UPDATE gantry_storage_probe SET written_at = ? WHERE id = 1")) {
            JobRows.setInstant(ps, 1, now());
            if (ps.executeUpdate() != 1) {
              throw new SQLException("the storage probe row is missing");
            }
            return null;
          }
        });
  }

  @Override
  public JobRecord submit(String owner, String name, String jobDescription) {
    checkNewJob(owner, name, jobDescription);
    return insertJob(JobId.random(), owner, name, jobDescription, null);
  }

  private static void checkNewJob(String owner, String name, String jobDescription) {
    if (owner == null || owner.isBlank() || owner.length() > NAME_LIMIT) {
      throw new IllegalArgumentException(
          "a job needs an owner of 1 to " + NAME_LIMIT + " characters");
    }
    if (name != null && name.length() > NAME_LIMIT) {
      throw new IllegalArgumentException(
          "a job name may have at most " + NAME_LIMIT + " characters");
    }
    if (jobDescription == null) {
      throw new IllegalArgumentException("a job needs its job description");
    }
  }

  @Override
  public JobRecord submit(
      JobId id, String owner, String name, String jobDescription, StoredPlan plan) {
    return submit(id, owner, name, jobDescription, plan, JobOrigin.NONE);
  }

  @Override
  public JobRecord submit(
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin) {
    return submit(id, owner, name, jobDescription, plan, origin, JobCharge.NONE);
  }

  @Override
  public JobRecord submit(
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin,
      JobCharge charge) {
    java.util.Objects.requireNonNull(id, "id");
    java.util.Objects.requireNonNull(plan, "plan");
    java.util.Objects.requireNonNull(origin, "origin");
    java.util.Objects.requireNonNull(charge, "charge");
    checkNewJob(owner, name, jobDescription);
    return insertJob(id, owner, name, jobDescription, plan, origin, charge);
  }

  /** Accounting (what jobs used) and the counts quotas are checked against, from this store. */
  public JobAccounting accounting() {
    return new JobAccounting(tx);
  }

  @Override
  public JobOrigin origin(JobId id) {
    return tx.read("read the origin of job " + id, c -> OriginRows.read(c, id));
  }

  @Override
  public java.util.Map<JobId, java.util.Map<String, String>> parameters(java.util.List<JobId> ids) {
    return tx.read(
        "read the template values of " + ids.size() + " jobs", c -> OriginRows.parameters(c, ids));
  }

  /** The schedules kept in the same database. */
  public ScheduleStore schedules() {
    return schedules;
  }

  private JobRecord insertJob(
      JobId id, String owner, String name, String jobDescription, StoredPlan plan) {
    return insertJob(id, owner, name, jobDescription, plan, JobOrigin.NONE, JobCharge.NONE);
  }

  private JobRecord insertJob(
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin,
      JobCharge charge) {
    Instant now = now();
    return tx.write(
        "store new job " + id,
        c -> insertJobIn(c, id, owner, name, jobDescription, plan, origin, charge, now));
  }

  @Override
  public List<JobRecord> submitAll(List<NewJob> jobs) {
    for (NewJob j : jobs) {
      checkNewJob(j.owner(), j.name(), j.jobDescription());
    }
    Instant now = now();
    return tx.write(
        "store " + jobs.size() + " new jobs of a chain",
        c -> {
          List<JobRecord> stored = new java.util.ArrayList<>();
          for (NewJob j : jobs) {
            // each job's conditions before it, as recordAtSubmission does (V12)
            if (!j.dependencies().isEmpty() || j.heldBy() != null) {
              conditions.insert(c, j.id(), j.dependencies(), j.heldBy());
            }
            stored.add(
                insertJobIn(
                    c,
                    j.id(),
                    j.owner(),
                    j.name(),
                    j.jobDescription(),
                    j.plan(),
                    j.origin(),
                    j.charge(),
                    now));
          }
          return stored;
        });
  }

  private JobRecord insertJobIn(
      java.sql.Connection c,
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin,
      JobCharge charge,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job (id, owner, name, state, submitted_at, jsdl_xml,"
                + " project, cores, owner_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                + Owners.ID_OF_NAMED
                + ")")) {
      ps.setString(1, id.value());
      ps.setString(2, owner);
      ps.setString(3, name);
      ps.setString(4, JobState.QUEUED.name());
      JobRows.setInstant(ps, 5, now);
      ps.setString(6, jobDescription);
      ps.setString(7, charge.project());
      ps.setInt(8, charge.cores());
      ps.setString(9, owner);
      ps.executeUpdate();
    }
    if (plan != null) {
      PlanRows.insert(c, id, plan, now, TEXT_LIMIT);
    }
    OriginRows.insert(c, id, origin); // the template's values go with the job, or neither
    appendHistory(c, id, null, JobState.QUEUED, now, "submitted by " + owner);
    JobRecord job = readJob(c, id).orElseThrow();
    JobEvents.stateChanged(c, job, null, "submitted by " + owner, null, now);
    return job;
  }

  @Override
  public boolean recordPlan(JobId id, StoredPlan plan) {
    Instant now = now();
    return tx.write(
        "record the plan of job " + id,
        c -> {
          if (readJob(c, id).isEmpty()) {
            throw new UnknownJobException(id);
          }
          if (PlanRows.exists(c, id)) {
            return false;
          }
          PlanRows.insert(c, id, plan, now, TEXT_LIMIT);
          return true;
        });
  }

  @Override
  public Optional<StoredPlan> plan(JobId id) {
    return tx.read("read the plan of job " + id, c -> PlanRows.read(c, id));
  }

  @Override
  public Optional<JobRecord> find(JobId id) {
    return tx.read("read job " + id, c -> readJob(c, id));
  }

  @Override
  public void recordComputeRef(JobId id, String ref) {
    tx.write("record the compute reference of job " + id, computeRefUpdate(id, ref));
  }

  @Override
  public void recordComputeRefLazily(JobId id, String ref) {
    tx.writeLazily("record the compute reference of job " + id, computeRefUpdate(id, ref));
  }

  private static Transactor.Work<Integer> computeRefUpdate(JobId id, String ref) {
    return c -> {
      try (PreparedStatement ps =
          c.prepareStatement("UPDATE gantry_job SET compute_ref = ? WHERE id = ?")) {
        ps.setString(1, ref);
        ps.setString(2, id.value());
        return ps.executeUpdate();
      }
    };
  }

  @Override
  public Optional<String> computeRef(JobId id) {
    return tx.read(
        "read the compute reference of job " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT compute_ref FROM gantry_job WHERE id = ?")) {
            ps.setString(1, id.value());
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  @Override
  public Optional<String> jobDescription(JobId id) {
    return tx.read(
        "read the job description of " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT jsdl_xml FROM gantry_job WHERE id = ?")) {
            ps.setString(1, id.value());
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  @Override
  public boolean transition(JobId id, StateChange change) {
    if (!change.from().canMoveTo(change.to())) {
      throw new IllegalTransitionException(id, change.from(), change.to());
    }
    Instant now = now();
    boolean moved =
        tx.write(
            "move job " + id + " to " + change.to(),
            c -> {
              if (!compareAndSetState(c, id, change, now)) {
                if (readJob(c, id).isEmpty()) {
                  throw new UnknownJobException(id);
                }
                return false;
              }
              appendHistory(c, id, change.from(), change.to(), now, change.reason());
              JobRecord job = readJob(c, id).orElseThrow();
              JobEvents.stateChanged(
                  c, job, change.from(), change.reason(), change.exitCode(), now);
              return true;
            });
    if (moved) {
      // once committed: the operator's log follows each job as its audit trail does
      log.info("job {}: {} -> {}: {}", id, change.from(), change.to(), change.reason());
    }
    return moved;
  }

  @Override
  public boolean transitions(JobId id, List<StateChange> changes) {
    return transitions(id, changes, true);
  }

  @Override
  public boolean transitionsLazily(JobId id, List<StateChange> changes) {
    return transitions(id, changes, false);
  }

  private boolean transitions(JobId id, List<StateChange> changes, boolean durable) {
    for (int i = 0; i < changes.size(); i++) {
      StateChange change = changes.get(i);
      if (!change.from().canMoveTo(change.to())) {
        throw new IllegalTransitionException(id, change.from(), change.to());
      }
      if (i > 0 && changes.get(i - 1).to() != change.from()) {
        throw new IllegalArgumentException(
            "job "
                + id
                + ": a change from "
                + change.from()
                + " cannot follow one to "
                + changes.get(i - 1).to());
      }
    }
    Instant now = now();
    Transactor.Work<Boolean> work =
        c -> {
          for (int i = 0; i < changes.size(); i++) {
            StateChange change = changes.get(i);
            if (!compareAndSetState(c, id, change, now)) {
              if (readJob(c, id).isEmpty()) {
                throw new UnknownJobException(id);
              }
              if (i > 0) {
                // not expected (this transaction moved it there); rolls every change back
                throw new IllegalStateException(
                    "job " + id + " left " + change.from() + " within one transaction");
              }
              return false;
            }
            appendHistory(c, id, change.from(), change.to(), now, change.reason());
            JobRecord job = readJob(c, id).orElseThrow();
            JobEvents.stateChanged(c, job, change.from(), change.reason(), change.exitCode(), now);
          }
          return true;
        };
    String what = "move job " + id + " to " + changes.get(changes.size() - 1).to();
    boolean moved = durable ? tx.write(what, work) : tx.writeLazily(what, work);
    if (moved) {
      for (StateChange change : changes) {
        log.info("job {}: {} -> {}: {}", id, change.from(), change.to(), change.reason());
      }
    }
    return moved;
  }

  @Override
  public void recordDataMovements(JobId id, String phase, List<DataMovement> movements) {
    Instant now = now();
    tx.write(
        "record " + phase + " data movements of job " + id,
        c -> {
          try (PreparedStatement delete =
              c.prepareStatement(
                  "DELETE FROM gantry_data_movement WHERE job_id = ? AND phase = ?")) {
            delete.setString(1, id.value());
            delete.setString(2, phase);
            delete.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO gantry_data_movement (job_id, "
                      + "phase, seq, kind, source, detail, file, rows_moved, bytes, sha256, seconds, skipped, "
                      + "recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            int seq = 0;
            for (DataMovement m : movements) {
              ps.setString(1, id.value());
              ps.setString(2, phase);
              ps.setInt(3, ++seq);
              ps.setString(4, m.kind());
              ps.setString(5, clip(m.source()));
              ps.setString(6, clip(m.detail()));
              ps.setString(7, clip(m.file()));
              ps.setLong(8, m.rows());
              ps.setLong(9, m.bytes());
              ps.setString(10, m.sha256());
              ps.setDouble(11, m.seconds());
              ps.setBoolean(12, m.skipped());
              JobRows.setInstant(ps, 13, now);
              ps.addBatch();
            }
            ps.executeBatch();
          }
          Optional<JobRecord> job = readJob(c, id);
          if (job.isPresent()) {
            JobEvents.stagingFinished(c, job.get(), phase, movements, now);
          }
          return null;
        });
  }

  /** The states of a job that has not ended, as an SQL list. */
  private static final String UNFINISHED =
      "('QUEUED', 'STAGING_IN', 'STAGED', 'RUNNING', 'STAGING_OUT')";

  /**
   * A user's unfinished jobs: Owners.ownedByNamed split into its two cases, each counted from its
   * own index of job store V28 ((owner_id, state), (owner, owner_id, state)). An OR of the two made
   * H2 read every unfinished job of every user through the state index, so each submission's limit
   * check grew with the queue. Two parameters: the name, twice.
   */
  static final String UNFINISHED_COUNT =
      "SELECT (SELECT COUNT(*) FROM gantry_job j WHERE j.owner_id = "
          + Owners.ID_OF_NAMED
          + " AND j.state IN "
          + UNFINISHED
          + ") + (SELECT COUNT(*) FROM gantry_job j WHERE j.owner_id IS NULL AND j.owner = ?"
          + " AND j.state IN "
          + UNFINISHED
          + " AND NOT EXISTS (SELECT 1 FROM gantry_user u WHERE u.name = j.owner))";

  @Override
  public long countUnfinished(String owner) {
    return tx.read(
        "count unfinished jobs of " + owner,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(UNFINISHED_COUNT)) {
            ps.setString(1, owner);
            ps.setString(2, owner);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }

  @Override
  public List<DataMovement> dataMovements(JobId id) {
    return tx.read(
        "read data movements of job " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT phase, kind, source, detail, file, "
                      + "rows_moved, bytes, sha256, seconds, skipped FROM gantry_data_movement WHERE job_id = ? "
                      + "ORDER BY CASE phase WHEN 'STAGE_IN' THEN 0 ELSE 1 END, seq")) {
            ps.setString(1, id.value());
            try (ResultSet rs = ps.executeQuery()) {
              List<DataMovement> result = new java.util.ArrayList<>();
              while (rs.next()) {
                result.add(
                    new DataMovement(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getLong(6),
                        rs.getLong(7),
                        rs.getString(8),
                        rs.getDouble(9),
                        rs.getBoolean(10)));
              }
              return result;
            }
          }
        });
  }

  @Override
  public boolean updatePhaseDetail(JobId id, JobState state, String detail) {
    return tx.writeLazily(
        "update progress of job " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE gantry_job SET phase_detail = ? WHERE id = ? AND state = ?")) {
            ps.setString(1, clip(detail));
            ps.setString(2, id.value());
            ps.setString(3, state.name());
            return ps.executeUpdate() == 1;
          }
        });
  }

  @Override
  public List<JobRecord> list(JobQuery query) {
    List<Object> params = new ArrayList<>();
    String where = filter(query.owner(), query.states(), params);
    params.add(query.afterSeq());
    params.add(query.limit());
    return tx.read(
        "list jobs",
        c ->
            jobs(
                c,
                "SELECT "
                    + JobRows.JOB_COLUMNS
                    + " FROM gantry_job"
                    + where
                    + " AND seq > ? ORDER BY seq LIMIT ?",
                params));
  }

  @Override
  public JobPage newestFirst(String owner, Set<JobState> states, int offset, int limit) {
    if (offset < 0 || limit < 1 || limit > JobQuery.MAX_LIMIT) {
      throw new IllegalArgumentException("offset must be >= 0 and limit 1.." + JobQuery.MAX_LIMIT);
    }
    List<Object> filterParams = new ArrayList<>();
    String where = filter(owner, states, filterParams);
    List<Object> pageParams = new ArrayList<>(filterParams);
    pageParams.add(limit);
    pageParams.add(offset);
    return tx.read(
        "list jobs newest first",
        c -> {
          long total;
          try (PreparedStatement ps =
                  prepared(c, "SELECT COUNT(*) FROM gantry_job" + where, filterParams);
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            total = rs.getLong(1);
          }
          return new JobPage(
              total,
              jobs(
                  c,
                  "SELECT "
                      + JobRows.JOB_COLUMNS
                      + " FROM gantry_job"
                      + where
                      + " ORDER BY seq DESC LIMIT ? OFFSET ?",
                  pageParams));
        });
  }

  /** " WHERE ..." selecting an owner's jobs (null: everyone's) in some states (empty: all). */
  private static String filter(String owner, Set<JobState> states, List<Object> params) {
    StringBuilder sql = new StringBuilder(" WHERE 1 = 1");
    if (owner != null) {
      sql.append(" AND ").append(Owners.ownedByNamed("gantry_job"));
      params.add(owner);
      params.add(owner);
    }
    if (!states.isEmpty()) {
      sql.append(" AND state IN (").append("?, ".repeat(states.size() - 1)).append("?)");
      states.forEach(s -> params.add(s.name()));
    }
    return sql.toString();
  }

  private static PreparedStatement prepared(Connection c, String sql, List<Object> params)
      throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    for (int i = 0; i < params.size(); i++) {
      ps.setObject(i + 1, params.get(i));
    }
    return ps;
  }

  private static List<JobRecord> jobs(Connection c, String sql, List<Object> params)
      throws SQLException {
    try (PreparedStatement ps = prepared(c, sql, params);
        ResultSet rs = ps.executeQuery()) {
      List<JobRecord> jobs = new ArrayList<>();
      while (rs.next()) {
        jobs.add(JobRows.job(rs));
      }
      return jobs;
    }
  }

  @Override
  public Map<JobState, Long> countByState() {
    return tx.read(
        "count jobs by state",
        c -> {
          Map<JobState, Long> counts = new EnumMap<>(JobState.class);
          for (JobState s : JobState.values()) {
            counts.put(s, 0L);
          }
          try (PreparedStatement ps =
                  c.prepareStatement("SELECT state, COUNT(*) FROM gantry_job GROUP BY state");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              counts.put(JobState.valueOf(rs.getString(1)), rs.getLong(2));
            }
          }
          return counts;
        });
  }

  @Override
  public List<JobTransition> history(JobId id) {
    return tx.read(
        "read the history of job " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT job_id, seq, from_state, to_state, occurred_at, reason FROM gantry_job_transition"
                      + " WHERE job_id = ? ORDER BY seq")) {
            ps.setString(1, id.value());
            List<JobTransition> history = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                history.add(JobRows.transition(rs));
              }
            }
            return history;
          }
        });
  }

  /** Releases the connection pool if this store opened it; H2 then closes its files. */
  @Override
  public void close() {
    if (ownedPool != null) {
      ownedPool.close();
    }
  }

  private boolean compareAndSetState(Connection c, JobId id, StateChange change, Instant now)
      throws SQLException {
    StringBuilder sql = new StringBuilder("UPDATE gantry_job SET state = ?, phase_detail = ?");
    List<Object> params = new ArrayList<>(List.of(change.to().name()));
    params.add(clip(change.phaseDetail()));
    if (change.to() == JobState.RUNNING) {
      sql.append(", started_at = ?");
      params.add(now);
    }
    if (change.from().isFinal()) {
      // a retried stage-out: the job has not ended any more, and what failed is being redone
      sql.append(", finished_at = NULL, failure_reason = NULL");
    }
    if (change.to().isFinal()) {
      sql.append(", finished_at = ?");
      params.add(now);
    }
    if (change.to().isFinal() && change.to() != JobState.SUCCEEDED) {
      // the API shows why a job failed, was cancelled or was killed (and by whom)
      sql.append(", failure_reason = ?");
      params.add(clip(change.reason()));
    }
    if (change.exitCode() != null) {
      sql.append(", exit_code = ?");
      params.add(change.exitCode());
    }
    if (change.failedTasks() != null) {
      sql.append(", farm_failed_tasks = ?");
      params.add(change.failedTasks());
    }
    if (change.usage() != null) {
      // a NULL CPU time (not reported) is bound as a double's NULL, not phase_detail's VARCHAR
      sql.append(", program_seconds = ?, cpu_seconds = ?, farm_tasks = ?");
      params.add(change.usage().wallSeconds());
      params.add(
          change.usage().cpuSeconds() == null ? SqlNull.DOUBLE : change.usage().cpuSeconds());
      params.add(change.usage().tasks() == null ? SqlNull.INTEGER : change.usage().tasks());
    }
    sql.append(" WHERE id = ? AND state = ?");
    params.add(id.value());
    params.add(change.from().name());
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      for (int i = 0; i < params.size(); i++) {
        Object p = params.get(i);
        if (p instanceof Instant t) {
          JobRows.setInstant(ps, i + 1, t);
        } else if (p instanceof SqlNull n) {
          ps.setNull(i + 1, n.type);
        } else if (p == null) {
          ps.setNull(i + 1, java.sql.Types.VARCHAR); // only phase_detail may be null
        } else {
          ps.setObject(i + 1, p);
        }
      }
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Appends to the audit trail. Numbering by MAX(seq) + 1 is safe: every caller has just written
   * the job's row, whose lock keeps any other writer of this job's history out until commit.
   */
  private static void appendHistory(
      Connection c, JobId id, JobState from, JobState to, Instant at, String reason)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job_transition (job_id, seq, from_state, to_state, occurred_at, reason)"
                + " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM gantry_job_transition"
                + " WHERE job_id = ?")) {
      ps.setString(1, id.value());
      ps.setString(2, from == null ? null : from.name());
      ps.setString(3, to.name());
      JobRows.setInstant(ps, 4, at);
      ps.setString(5, clip(reason));
      ps.setString(6, id.value());
      ps.executeUpdate();
    }
  }

  private static Optional<JobRecord> readJob(Connection c, JobId id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + JobRows.JOB_COLUMNS + " FROM gantry_job WHERE id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(JobRows.job(rs)) : Optional.empty();
      }
    }
  }

  /** Microseconds: the finest both H2 and PostgreSQL store, so a value reads back equal. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  /** A NULL of a given SQL type, for a parameter list bound in order. */
  private enum SqlNull {
    DOUBLE(java.sql.Types.DOUBLE),
    INTEGER(java.sql.Types.INTEGER);

    final int type;

    SqlNull(int type) {
      this.type = type;
    }
  }

  private static String clip(String text) {
    return text == null || text.length() <= TEXT_LIMIT
        ? text
        : text.substring(0, TEXT_LIMIT - 3) + "...";
  }
}
