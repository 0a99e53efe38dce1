-- PostgreSQL twin of sqlite/0014_forget.sql: revoked objects.
ALTER TABLE objects ADD COLUMN revoked_at BIGINT;
ALTER TABLE objects ADD COLUMN revoked_reason TEXT;
