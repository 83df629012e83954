-- kifudex schema 1: sources, games, players, headers, comments, import errors.
-- Applied by the migration runner (src/store/migrate.rs); recorded in PRAGMA user_version.

-- Facts about the database itself: schema version, hash version, creating program.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- Every file (or entry of a .zip archive) an import has read, whether or not it held a game.
CREATE TABLE sources (
    id           INTEGER PRIMARY KEY,
    path         TEXT NOT NULL UNIQUE, -- as given to import; "archive.zip!dir/game.kif" for an entry
    size         INTEGER NOT NULL,     -- bytes
    mtime        INTEGER NOT NULL,     -- modification time, seconds since 1970 (0 when unknown)
    content_hash TEXT NOT NULL,        -- 16 hex digits of a 64-bit hash of the bytes; crc32 for a zip entry
    format       TEXT,                 -- kif, ki2, csa, jkf, usi, psn; NULL when unrecognised
    encoding     TEXT,                 -- utf-8, shift_jis, euc-jp
    games        INTEGER NOT NULL,     -- games read from it (duplicates included)
    error        TEXT                  -- why it could not be read at all, or NULL
);

-- Player names as written in the records; key and bare are search forms (see text::normalize).
CREATE TABLE players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    key  TEXT NOT NULL, -- NFKC, lower case, hiragana, 新字体, no spaces
    bare TEXT NOT NULL  -- key without titles and ranks (名人, 九段, 女流二段 ...)
);

-- One row per distinct game. The same game read from several places is stored once
-- (see game_sources).
CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: an id names one game for good
    source_id    INTEGER NOT NULL REFERENCES sources(id), -- where it was first read
    game_index   INTEGER NOT NULL,  -- 0-based index of the game in that source
    format       TEXT NOT NULL,
    start_sfen   TEXT,              -- with move number; NULL: the handicap's own position
    moves        BLOB NOT NULL,     -- main line, 2 bytes little-endian per move (see README)
    times        BLOB,              -- time spent per move (see README), NULL when the record has none
    plies        INTEGER NOT NULL,
    handicap     TEXT NOT NULL,     -- 平手, 香落ち, ..., その他
    date         TEXT,              -- YYYY-MM-DD, or YYYY-MM / YYYY when the record says no more
    event        TEXT,
    opening      TEXT,
    title        TEXT,
    sente_id     INTEGER REFERENCES players(id),
    gote_id      INTEGER REFERENCES players(id),
    terminal     TEXT,              -- resign, repetition, ... (kifudex parse names)
    winner       TEXT,              -- sente, gote, draw, or NULL when unknown
    illegal_ply  INTEGER,           -- first main-line move that broke a rule
    illegal_rule TEXT,
    tree         TEXT,              -- the whole record as KIF when it holds variations or bookmarks
    fingerprint  BLOB NOT NULL UNIQUE -- 16 bytes over start position, moves, terminal and date
);
CREATE INDEX games_date ON games(date);
CREATE INDEX games_sente ON games(sente_id);
CREATE INDEX games_gote ON games(gote_id);
CREATE INDEX games_event ON games(event);
CREATE INDEX games_opening ON games(opening);

-- Every place a game was read from; a duplicate adds a row here and no game.
CREATE TABLE game_sources (
    source_id  INTEGER NOT NULL REFERENCES sources(id),
    game_index INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    PRIMARY KEY (source_id, game_index)
) WITHOUT ROWID;
CREATE INDEX game_sources_game ON game_sources(game_id);

-- Every header of a game with its original key, in file order.
CREATE TABLE headers (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ord     INTEGER NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, ord)
) WITHOUT ROWID;

-- Comments of the main line: ply 0 is the start position, ply N the position after move N,
-- ply plies + 1 the end of the game. kind 0: a comment (KIF *, CSA '*); 1: an engine line
-- (KIF **, CSA '**); 2: a remark of the file (CSA '), placed after `ply` main-line entries.
CREATE TABLE comments (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,
    ord     INTEGER NOT NULL,
    kind    INTEGER NOT NULL DEFAULT 0,
    text    TEXT NOT NULL,
    PRIMARY KEY (game_id, ply, ord)
) WITHOUT ROWID;

-- Problems met while importing: unreadable files (line NULL) and reading errors in games.
CREATE TABLE import_errors (
    id         INTEGER PRIMARY KEY,
    source_id  INTEGER NOT NULL REFERENCES sources(id),
    game_index INTEGER,
    line       INTEGER,
    col        INTEGER,
    message    TEXT NOT NULL
);
CREATE INDEX import_errors_source ON import_errors(source_id);
