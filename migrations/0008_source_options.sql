-- kifudex schema 7: the import options a source was indexed with (`variations`, or empty
-- for none), so that an import with other options reads it again instead of reporting it
-- unchanged. Sources imported before were indexed with none.
ALTER TABLE sources ADD COLUMN options TEXT NOT NULL DEFAULT '';
