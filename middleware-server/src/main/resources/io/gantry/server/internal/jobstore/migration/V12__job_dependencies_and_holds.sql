-- Gantry job store, version 12: what a QUEUED job waits for before its stage-in may begin.
--
-- Dependencies (gantry submit --after / --after-any, or gx:Dependencies in the job description)
-- and holds (--hold, gantry hold) live beside the job, not in its state: a waiting job is QUEUED,
-- holds no slot and stages nothing. The rows are written BEFORE the job's own row, in their own
-- transaction: a crash between the two leaves rows of a job that was never acknowledged (harmless,
-- ignored), never a job that would run without the conditions it was submitted with. Hence no
-- foreign key to gantry_job.

CREATE TABLE gantry_job_dependency (
  job_id      VARCHAR(32) NOT NULL,
  -- the job that must end first; it existed, visible to the submitter, when the job was submitted
  depends_on  VARCHAR(32) NOT NULL,
  -- 'after': depends_on must end SUCCEEDED; 'afterany': it must end, whatever the outcome
  kind        VARCHAR(16) NOT NULL,
  PRIMARY KEY (job_id, depends_on, kind),
  CONSTRAINT gantry_job_dependency_kind_known CHECK (kind IN ('after', 'afterany'))
);

-- "who waits for this job" when it ends
CREATE INDEX gantry_job_dependency_on ON gantry_job_dependency (depends_on);

CREATE TABLE gantry_job_hold (
  job_id   VARCHAR(32)  NOT NULL PRIMARY KEY,
  held_by  VARCHAR(255) NOT NULL,
  held_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
