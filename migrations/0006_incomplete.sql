-- kifudex schema 6: a game whose main line stops at a move that could not be applied is
-- marked incomplete (1), so that a truncated game never looks complete. Games stored before
-- are not known to be either: 0, until their file is read again.
ALTER TABLE games ADD COLUMN incomplete INTEGER NOT NULL DEFAULT 0;
