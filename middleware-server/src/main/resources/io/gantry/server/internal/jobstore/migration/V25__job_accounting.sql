-- Gantry job store, version 25: what each job is charged to and what it used, for accounting and
-- quotas (docs/operations.md, "Accounting and quotas"). Staged bytes are not repeated here: they
-- are gantry_data_movement's (version 2), summed per job by the accounting report.
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.

-- The job's project (JSDL JobIdentification/JobProject, the first one), or NULL for none.
ALTER TABLE gantry_job ADD COLUMN project VARCHAR(255);
-- The compute cores the job was allocated (its process count); 0 for a staging-only job, NULL for
-- a job stored before version 25.
ALTER TABLE gantry_job ADD COLUMN cores INTEGER;
-- The program's wall time in seconds, from its start to its end, once it ended.
ALTER TABLE gantry_job ADD COLUMN program_seconds DOUBLE PRECISION;
-- User plus system CPU time of the program's processes, where the backend reports it.
ALTER TABLE gantry_job ADD COLUMN cpu_seconds DOUBLE PRECISION;
-- For a task farm, how many tasks it had.
ALTER TABLE gantry_job ADD COLUMN farm_tasks INTEGER;

-- The report walks jobs by when they ended; quotas count a project's unfinished jobs.
CREATE INDEX gantry_job_finished_at ON gantry_job (finished_at);
CREATE INDEX gantry_job_project_state ON gantry_job (project, state);
