-- Gantry job store, version 28: the per-user limit on unfinished jobs (limits.queued-jobs-per-user),
-- checked on every submission, counts one user's unfinished jobs from an index on (owner, state)
-- instead of reading every unfinished job of every user: with thousands of jobs queued the count
-- was a sixth of a submission's CPU. One index for the owner's user id, one for the stored name of
-- a job stored without an id (the store used without accounts: Owners.ownedByNamed); each count
-- reads only that owner's range of its index (JdbcJobStore.countUnfinished).
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.
CREATE INDEX gantry_job_owner_id_state ON gantry_job (owner_id, state);
CREATE INDEX gantry_job_owner_state ON gantry_job (owner, owner_id, state);
