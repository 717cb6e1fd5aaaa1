-- Gantry job store, version 2: every data movement of a job (stage-in and stage-out manifests),
-- for getJobResults and the audit trail. A phase that runs again (recovery after a restart)
-- replaces its records in the same transaction, so a job never shows half of two attempts.

CREATE TABLE gantry_data_movement (
  job_id     VARCHAR(32)   NOT NULL REFERENCES gantry_job (id) ON DELETE CASCADE,
  phase      VARCHAR(16)   NOT NULL,
  seq        INTEGER       NOT NULL,
  kind       VARCHAR(32)   NOT NULL,
  -- a data source and statement, or host and remote path: never a secret
  source     VARCHAR(4000) NOT NULL,
  detail     VARCHAR(4000),
  file       VARCHAR(4000) NOT NULL,
  rows_moved BIGINT        NOT NULL,
  bytes      BIGINT        NOT NULL,
  sha256     VARCHAR(64),
  seconds    DOUBLE PRECISION NOT NULL,
  skipped    BOOLEAN       NOT NULL,
  recorded_at TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (job_id, phase, seq),
  CONSTRAINT gantry_data_movement_phase CHECK (phase IN ('STAGE_IN', 'STAGE_OUT'))
);
