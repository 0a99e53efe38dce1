-- PostgreSQL twin of sqlite/0008_api_tokens.sql: tenant tokens, stored as the SHA-256 of the token. Every
-- process on the database reads this table on each request, so a revocation holds at once everywhere.
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  name TEXT,
  token_hash TEXT NOT NULL UNIQUE,
  owners TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  last_used_at BIGINT
);
-- A second wall: only statements acting for every owner (authentication, an all-owners caller) see tokens;
-- a call scoped to some owners can neither read nor write one.
ALTER TABLE api_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE api_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY all_owners_only ON api_tokens
  USING (current_setting('mnemo.owners', true) = '*') WITH CHECK (current_setting('mnemo.owners', true) = '*');
