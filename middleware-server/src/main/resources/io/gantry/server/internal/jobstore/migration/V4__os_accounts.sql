-- Gantry job store, version 4: the OS account each user's jobs run under. NULL means the
-- server's jobs.default-os-account. The account name only: uid, gid and groups are looked up on
-- the host at each submission and launch, so a changed group membership takes effect at once.

ALTER TABLE gantry_user ADD COLUMN os_account VARCHAR(32);
