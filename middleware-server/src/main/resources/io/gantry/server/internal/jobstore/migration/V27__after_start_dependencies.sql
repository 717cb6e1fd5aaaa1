-- Gantry job store, version 27: a job may wait only for another job's program to start
-- ('afterstart', gx:AfterStart, Slurm's after:ID), to read that job's files while they are written
-- (streaming between stages, docs/workflows.md).
ALTER TABLE gantry_job_dependency DROP CONSTRAINT gantry_job_dependency_kind_known;
ALTER TABLE gantry_job_dependency ADD CONSTRAINT gantry_job_dependency_kind_known
  CHECK (kind IN ('after', 'afterany', 'afterstart'));
