-- kifudex schema 4: import problems are errors (data the file holds that could not be kept)
-- or warnings (a line skipped that holds no game data, a default assumed). Problems recorded
-- before were all counted as errors, and stay errors.
ALTER TABLE import_errors ADD COLUMN severity TEXT NOT NULL DEFAULT 'error'
    CHECK (severity IN ('error', 'warning'));
