-- Gantry job store, version 9: each job's plan, fixed at submission. Readers (output, job files,
-- the job page) find a job's files here instead of planning the job again with the configuration
-- of the day. Never a secret: a step names its data source or remote side, not a credential.
-- Jobs stored before this version have no row; the server plans such a job once, when it is
-- first read, and stores the result here.

CREATE TABLE gantry_job_plan (
  job_id        VARCHAR(32)   NOT NULL PRIMARY KEY REFERENCES gantry_job (id) ON DELETE CASCADE,
  job_directory VARCHAR(4000) NOT NULL,
  -- relative to job_directory; both NULL for a job that only stages data
  stdout_file   VARCHAR(4000),
  stderr_file   VARCHAR(4000),
  planned_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE gantry_job_plan_step (
  job_id     VARCHAR(32)   NOT NULL REFERENCES gantry_job (id) ON DELETE CASCADE,
  phase      VARCHAR(16)   NOT NULL,
  seq        INTEGER       NOT NULL,
  kind       VARCHAR(32)   NOT NULL,
  step_order INTEGER       NOT NULL,
  source     VARCHAR(4000) NOT NULL,
  detail     VARCHAR(4000),
  file       VARCHAR(4000) NOT NULL,
  PRIMARY KEY (job_id, phase, seq),
  CONSTRAINT gantry_job_plan_step_phase CHECK (phase IN ('STAGE_IN', 'STAGE_OUT'))
);
