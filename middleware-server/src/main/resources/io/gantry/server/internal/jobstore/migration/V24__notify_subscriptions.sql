-- Gantry job store, version 24: standing notification subscriptions (docs/operations.md,
-- "Subscriptions"). A user's subscription covers the events of all their jobs and schedules; one
-- naming a schedule covers that schedule's events and the jobs it submits. Checked against
-- notify.allowed-hosts / notify.mail-allowed when added, and again before every delivery.
-- Written to run unchanged on H2 2.x and PostgreSQL, like version 1.

CREATE TABLE gantry_notify_subscription (
  id          VARCHAR(32)   NOT NULL PRIMARY KEY,
  -- the name it was added under (audit); owner_id is whose it is (job store V15)
  owner       VARCHAR(255)  NOT NULL,
  owner_id    VARCHAR(80),
  -- the schedule it is limited to, or NULL for all of the owner's events; goes with the schedule
  schedule_id VARCHAR(32)   REFERENCES gantry_schedule (id) ON DELETE CASCADE,
  -- an https:// webhook URL, or mailto:ADDRESS for a mailbox
  target      VARCHAR(2000) NOT NULL,
  -- event types without their io.gantry. prefix, space-separated; '*' for every one
  events      VARCHAR(1000) NOT NULL,
  created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX gantry_notify_subscription_owner ON gantry_notify_subscription (owner_id);
