-- kifudex schema 15 (its place in the list of migrations once 0014, the evaluations, is in):
-- one game, one row. The same game read from several sources (a KIF from one site, a CSA
-- from another, each with other headers) is stored once: its twins are the
-- records with the same start, the same main line, terminals that agree and metadata that
-- does not conflict (see store/twins). The program re-keys every game right after this file
-- (a Rust step, store/twins/rekey.rs) and merges the games that are now twins.

-- The duplicate key (games.fingerprint) now holds the start position and the main line
-- only: the games with a key are the candidates a new record's metadata is compared with.

-- A source that holds a game under other facts than the game's own (another spelling of
-- the event, a field the game lacks, a start time of day): what it says, as JSON
-- {"headers": [[key, value], ...], "terminal": code, "winner": code}, with "plies" when
-- its main line is a prefix of the game's and "hand": true when a person merged it
-- (`kifudex twins --merge`). NULL: the same facts as the game's own source.
ALTER TABLE game_sources ADD COLUMN facts TEXT;

-- The facts a game took from another of its sources because its own lacks them (the event
-- of the KIF for a game first read from a CSA): the fact (sente, gote, start_time,
-- end_time, event, site, time_control, opening, title, terminal) and the source it came
-- from. The game's headers hold the source's headers for it.
CREATE TABLE game_fields (
    game_id    INTEGER NOT NULL,
    field      TEXT NOT NULL,
    source_id  INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    PRIMARY KEY (game_id, field)
) WITHOUT ROWID;

-- Records a person split from a game (`kifudex twins --split`): the record read as
-- (source_id, game_index) is never merged into game_id again.
CREATE TABLE twins_apart (
    source_id  INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,
    PRIMARY KEY (source_id, game_index, game_id)
) WITHOUT ROWID;
CREATE INDEX twins_apart_game ON twins_apart(game_id);

-- Games whose text changed since they were written (facts filled from a twin, a merge or a
-- split), in the order they changed: the text index, which remembers the last revision it
-- took, indexes them again.
CREATE TABLE game_revisions (
    revision INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL
);
