-- Revoked objects (issue 10): an object withdrawn with a reason keeps its rows (memory.forget deletes) but
-- never reaches a reader again. The status CHECK of objects cannot change without rebuilding the table,
-- so revocation is its own column: an object with `revoked_at` set reports status `revoked`.
ALTER TABLE objects ADD COLUMN revoked_at INTEGER;
ALTER TABLE objects ADD COLUMN revoked_reason TEXT;
