-- Gantry job store, version 3: user accounts. The password is kept only as a salted, slow hash
-- (PBKDF2-HMAC-SHA256, its parameters in the value itself so they can be raised later without a
-- migration); the clear password is never stored. Jobs refer to their owner by name.

CREATE TABLE gantry_user (
  name          VARCHAR(255)  NOT NULL PRIMARY KEY,
  role          VARCHAR(16)   NOT NULL,
  password_hash VARCHAR(512)  NOT NULL,
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT gantry_user_role_known CHECK (role IN ('user', 'admin'))
);
