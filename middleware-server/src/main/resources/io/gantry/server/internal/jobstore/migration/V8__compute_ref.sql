-- Gantry job store, version 8: where a job's program runs outside the server, e.g. the Slurm job
-- id. A restarted server follows such a job again by this reference instead of failing it.

ALTER TABLE gantry_job ADD COLUMN compute_ref VARCHAR(64);
