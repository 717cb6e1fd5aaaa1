-- Gantry job store, version 18: a resubmission may rerun only the failed or lost tasks of a task
-- farm (resubmitFailedTasks, gantry resubmit --failed-tasks). The new job's origin says so; its
-- farm then carries the succeeded tasks' rows over from the result file of the job it was
-- resubmitted from (resubmitted_from) instead of running them again (docs/task-farms.md).
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.

ALTER TABLE gantry_job_origin ADD COLUMN failed_tasks_only BOOLEAN DEFAULT FALSE NOT NULL;
