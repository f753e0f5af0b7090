-- The privacy notice each lead's sender was shown: {"version", "language", "sha256"}, or NULL
-- when the server did not know it (and for every lead from before it). Nullable, so the
-- previous release's inserts, which do not name it, still work.
ALTER TABLE leads ADD COLUMN privacy_notice jsonb;
