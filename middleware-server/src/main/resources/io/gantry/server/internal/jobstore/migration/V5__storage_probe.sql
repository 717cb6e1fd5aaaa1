-- Gantry job store, version 5: one row the server rewrites every few seconds to learn that the
-- job store can still be written (a disk that filled up, a file system remounted read-only, a
-- PostgreSQL server in read-only mode), before it acknowledges a job it could not keep.

CREATE TABLE gantry_storage_probe (
  id         INTEGER NOT NULL PRIMARY KEY,
  written_at TIMESTAMP WITH TIME ZONE NOT NULL
);

INSERT INTO gantry_storage_probe (id, written_at) VALUES (1, CURRENT_TIMESTAMP);
