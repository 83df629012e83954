-- kifudex schema 13: the game's opening label, as `search --opening` and `openings` read it
-- (the 戦型 header's first name kifudex knows, in its canonical spelling, else the header as
-- written, else the label recognised from the moves: `classify::game_label`), kept as a
-- number per game so that both answer from indexes and totals rather than from every row.
CREATE TABLE game_labels (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
ALTER TABLE games ADD COLUMN label_id INTEGER REFERENCES game_labels(id);
-- Newest games of a label, read from the date index alone; games of a label in a span of
-- dates counted from the label index alone.
DROP INDEX IF EXISTS games_date;
CREATE INDEX games_date ON games(date, label_id);
CREATE INDEX games_label ON games(label_id, date);

-- Games, results and first and last date per year: of each game label (kind 'opening', side
-- -1), of each recognised strategy and castle with its ancestors per side that played it
-- (kind 'strategy' / 'castle', side 0 sente, 1 gote), and of all games (kind 'all', name '').
-- Kept by every import; a removal that takes a year's first or last game away marks them
-- stale (meta `opening_totals_stale`), and the next command that writes counts them again.
-- Year 0: games without a date.
CREATE TABLE opening_totals (
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    side       INTEGER NOT NULL,
    year       INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    sente_wins INTEGER NOT NULL,
    gote_wins  INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    first_date TEXT,
    last_date  TEXT,
    PRIMARY KEY (kind, name, side, year)
) WITHOUT ROWID;
