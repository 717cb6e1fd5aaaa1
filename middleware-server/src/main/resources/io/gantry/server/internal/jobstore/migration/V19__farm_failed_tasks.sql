-- Gantry job store, version 19: a task farm whose every task became final succeeds, whatever its
-- tasks' own exit statuses, and records here how many of them failed or were lost, so that the
-- job's status (failedTasks) and gantry wait's exit code say so, not only the audit trail
-- (docs/task-farms.md). NULL for every job that is not a finished farm.
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.

ALTER TABLE gantry_job ADD COLUMN farm_failed_tasks INTEGER;
