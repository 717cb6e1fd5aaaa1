-- Gantry job store, version 11: job templates, resubmission and schedules (issue 18).
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.

-- The parameter values a job was filled with (its description keeps the template as written).
-- Stored in the same transaction as the job, so a stored job always has its values.
CREATE TABLE gantry_job_parameter (
  job_id VARCHAR(32)   NOT NULL REFERENCES gantry_job (id) ON DELETE CASCADE,
  seq    INTEGER       NOT NULL,
  param_name  VARCHAR(64)   NOT NULL,
  param_value VARCHAR(4000) NOT NULL,
  PRIMARY KEY (job_id, param_name)
);

-- Where a job came from, when not a plain submission: another job it was resubmitted from, or
-- a schedule and the time it was scheduled for. No foreign key to the original job or the
-- schedule: either may be removed later, and the job still says where it came from.
CREATE TABLE gantry_job_origin (
  job_id           VARCHAR(32)  NOT NULL PRIMARY KEY REFERENCES gantry_job (id) ON DELETE CASCADE,
  resubmitted_from VARCHAR(32),
  schedule_id      VARCHAR(32),
  schedule_name    VARCHAR(128),
  scheduled_for    TIMESTAMP WITH TIME ZONE
);

CREATE TABLE gantry_schedule (
  id           VARCHAR(32)   NOT NULL PRIMARY KEY,
  owner        VARCHAR(255)  NOT NULL,
  name         VARCHAR(128)  NOT NULL,
  -- a Unix cron expression (5 fields), read with cron-utils
  cron         VARCHAR(200)  NOT NULL,
  time_zone    VARCHAR(64)   NOT NULL,
  missed       VARCHAR(16)   NOT NULL,
  paused       BOOLEAN       NOT NULL,
  created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
  -- the last scheduled time dealt with (run or skipped); NULL: none yet, count from created_at.
  -- A firing claims its time here before it submits, so no time runs twice.
  last_time    TIMESTAMP WITH TIME ZONE,
  last_job_id  VARCHAR(32),
  last_note    VARCHAR(4000),
  -- the job template as submitted with the schedule (passwords in it are encrypted values)
  jsdl_xml     TEXT          NOT NULL,
  CONSTRAINT gantry_schedule_name_unique UNIQUE (owner, name),
  CONSTRAINT gantry_schedule_missed_known CHECK (missed IN ('RUN_ONCE', 'SKIP'))
);

CREATE TABLE gantry_schedule_parameter (
  schedule_id VARCHAR(32)   NOT NULL REFERENCES gantry_schedule (id) ON DELETE CASCADE,
  seq         INTEGER       NOT NULL,
  param_name  VARCHAR(64)   NOT NULL,
  param_value VARCHAR(4000) NOT NULL,
  PRIMARY KEY (schedule_id, param_name)
);
