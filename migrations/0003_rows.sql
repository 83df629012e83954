-- kifudex schema 3: fewer rows and fewer index entries written per game.
--
-- * Comments move into the games row, as a JSON array of [ply, kind, text] in order (NULL when
--   the game has none). The view `comments` shows them as rows, as schemas 1 and 2 stored them.
-- * A game's first source is in its own row (source_id, game_index): game_sources keeps only
--   the other places it was read, one row per duplicate.
-- * Paths and fingerprints are no longer UNIQUE-indexed: the one importer that may run at a
--   time (the lock file `import.lock`) keeps both in memory. Ids and order are kept.
-- * `tree` may hold the KIF text deflate-compressed (a BLOB; see the README).

CREATE TABLE sources_3 (
    id           INTEGER PRIMARY KEY,
    path         TEXT NOT NULL,
    size         INTEGER NOT NULL,
    mtime        INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    format       TEXT,
    encoding     TEXT,
    games        INTEGER NOT NULL,
    error        TEXT
);
INSERT INTO sources_3 SELECT id, path, size, mtime, content_hash, format, encoding, games, error
    FROM sources;
DROP TABLE sources;
ALTER TABLE sources_3 RENAME TO sources;

CREATE TABLE games_3 (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id    INTEGER NOT NULL REFERENCES sources(id),
    game_index   INTEGER NOT NULL,
    format       TEXT NOT NULL,
    start_sfen   TEXT,
    moves        BLOB NOT NULL,
    times        BLOB,
    plies        INTEGER NOT NULL,
    handicap     TEXT NOT NULL,
    date         TEXT,
    event        TEXT,
    opening      TEXT,
    title        TEXT,
    sente_id     INTEGER REFERENCES players(id),
    gote_id      INTEGER REFERENCES players(id),
    terminal     TEXT,
    winner       TEXT,
    illegal_ply  INTEGER,
    illegal_rule TEXT,
    tree         BLOB,
    fingerprint  BLOB NOT NULL,
    headers      TEXT,
    comments     TEXT
);
INSERT INTO games_3 SELECT g.id, g.source_id, g.game_index, g.format, g.start_sfen, g.moves,
    g.times, g.plies, g.handicap, g.date, g.event, g.opening, g.title, g.sente_id, g.gote_id,
    g.terminal, g.winner, g.illegal_ply, g.illegal_rule, g.tree, g.fingerprint, g.headers,
    (SELECT json_group_array(json_array(ply, kind, text)) FROM (
        SELECT ply, kind, text FROM comments c WHERE c.game_id = g.id ORDER BY ply, ord))
    FROM games g;
UPDATE games_3 SET comments = NULL WHERE comments = '[]';
-- Ids are never reused: the sequence goes on from where it was.
UPDATE sqlite_sequence
    SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0))
    WHERE name = 'games_3';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'games_3', seq FROM sqlite_sequence
    WHERE name = 'games' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'games_3');
DROP TABLE games;
DROP TABLE comments;
ALTER TABLE games_3 RENAME TO games;
CREATE INDEX games_date ON games(date);
CREATE INDEX games_sente ON games(sente_id);
CREATE INDEX games_gote ON games(gote_id);

CREATE VIEW comments AS
    SELECT g.id AS game_id, j.value ->> 0 AS ply, j.key AS ord, j.value ->> 1 AS kind,
           j.value ->> 2 AS text
    FROM games g, json_each(g.comments) j
    WHERE g.comments IS NOT NULL;

DELETE FROM game_sources WHERE EXISTS (
    SELECT 1 FROM games g
    WHERE g.id = game_sources.game_id AND g.source_id = game_sources.source_id
      AND g.game_index = game_sources.game_index
);
