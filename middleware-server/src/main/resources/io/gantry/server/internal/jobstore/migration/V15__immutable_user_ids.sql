-- Gantry job store, version 15: every per-user record is bound to an immutable user id, not to
-- the user's name. A name can be taken again after its user is removed; an id never is. Before
-- this version, a removed user's schedules kept firing and their jobs stayed theirs by name, so a
-- later, different user of that name inherited both.
--
-- Users added from now on get a random id (32 hexadecimal digits). Existing users, jobs, schedules
-- and tokens get the id 'v15-' || name: the same for a user and the records they own today, and
-- never given to a new user (whose id is random), so the records of a user removed before this
-- version belong to nobody who can log in. A job or schedule stored for a name that is no user
-- (the store used without accounts) keeps owner_id NULL, and its owner is its stored name.
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.

ALTER TABLE gantry_user ADD COLUMN user_id VARCHAR(80);
UPDATE gantry_user SET user_id = 'v15-' || name;
ALTER TABLE gantry_user ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE gantry_user ADD CONSTRAINT gantry_user_id_unique UNIQUE (user_id);

-- gantry_job.owner stays as the name at submission (audit); owner_id is whose the job is.
ALTER TABLE gantry_job ADD COLUMN owner_id VARCHAR(80);
UPDATE gantry_job SET owner_id = 'v15-' || owner;
CREATE INDEX gantry_job_owner_id_seq ON gantry_job (owner_id, seq);

ALTER TABLE gantry_schedule ADD COLUMN owner_id VARCHAR(80);
UPDATE gantry_schedule SET owner_id = 'v15-' || owner;
-- A schedule whose user was removed before this version would fire for the next user of that
-- name: it goes, as every removed user's schedules go from now on (with the user, in the same
-- transaction). The jobs it submitted keep their origin (gantry_job_origin has no foreign key).
DELETE FROM gantry_schedule WHERE owner_id NOT IN (SELECT user_id FROM gantry_user);

-- Tokens are removed with their user already (foreign key on the name); the id binds them too.
ALTER TABLE gantry_session_token ADD COLUMN user_id VARCHAR(80);
UPDATE gantry_session_token SET user_id = 'v15-' || user_name;
ALTER TABLE gantry_session_token ALTER COLUMN user_id SET NOT NULL;
