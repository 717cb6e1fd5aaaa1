-- Gantry job store, version 23: a schedule may name a holiday calendar (calendar.NAME.* settings);
-- its times on the calendar's dates are skipped. NULL: no calendar, every date is a working date.
-- Only the name is stored: the dates are the server's settings' to define and change.
ALTER TABLE gantry_schedule ADD COLUMN calendar VARCHAR(128);
