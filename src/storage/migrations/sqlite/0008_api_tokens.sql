-- Tenant tokens (issue 9): each acts for the owners its patterns allow (exact owners and `prefix/*`, a JSON
-- array). Only the SHA-256 of a token is kept, never the token: it carries 256 random bits, so no salt is
-- needed, and it is shown once, when it is created. A revoked token keeps its row (and refuses at once).
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  name TEXT,
  token_hash TEXT NOT NULL UNIQUE,
  owners TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  last_used_at INTEGER
);
