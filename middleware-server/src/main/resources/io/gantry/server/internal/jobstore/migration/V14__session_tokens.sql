-- Gantry job store, version 14: session tokens (gantry login). A client that logged in with its
-- password sends the token instead on every later call, so the server checks a SHA-256 hash
-- instead of the slow password hash each time. Only the token's SHA-256 is kept, never the token;
-- password_stamp is a SHA-256 of the user's password hash when the token was issued, so a changed
-- password ends every token issued before it. Removing the user removes their tokens.

CREATE TABLE gantry_session_token (
  id             VARCHAR(32)   NOT NULL PRIMARY KEY,
  token_hash     VARCHAR(64)   NOT NULL UNIQUE,
  user_name      VARCHAR(255)  NOT NULL REFERENCES gantry_user (name) ON DELETE CASCADE,
  password_stamp VARCHAR(64)   NOT NULL,
  description    VARCHAR(255),
  created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
  expires_at     TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX gantry_session_token_user ON gantry_session_token (user_name);
