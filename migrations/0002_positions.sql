-- kifudex schema 2: the position index (src/store/postings).

-- A sorted run of postings written by one import commit (or by a merge). Per game of
-- [first_game, last_game]: results holds one byte (0 unknown, 1 sente won, 2 gote won, 3 draw),
-- dates four bytes little-endian (YYYYMMDD as a number, 0 unknown), so that trees and
-- newest-first orders need no game rows.
CREATE TABLE position_segments (
    id         INTEGER PRIMARY KEY,
    first_game INTEGER NOT NULL,
    last_game  INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    entries    INTEGER NOT NULL, -- postings: one per position of each game's main line
    blocks     INTEGER NOT NULL,
    bytes      INTEGER NOT NULL,
    results    BLOB NOT NULL,
    dates      BLOB NOT NULL
);

-- Postings in blocks of up to 448, sorted by (key, game) within a segment; first_key is the
-- key of a block's first entry. Key: the top 40 bits of the board hash. See the README for
-- the block layout.
CREATE TABLE position_blocks (
    id        INTEGER PRIMARY KEY,
    segment   INTEGER NOT NULL REFERENCES position_segments(id),
    first_key INTEGER NOT NULL,
    data      BLOB NOT NULL
);
CREATE INDEX position_blocks_key ON position_blocks(segment, first_key);

-- Games deleted (their file changed and was read again) whose postings a segment still holds;
-- queries leave them out, merges drop them.
CREATE TABLE removed_games (
    id INTEGER PRIMARY KEY
);

-- Headers move into the games row: one TEXT of "key<TAB>value" lines in file order, with
-- backslash, tab and newline in keys and values written \\, \t and \n. One row per game
-- costs less to write and to store than one row per header.
ALTER TABLE games ADD COLUMN headers TEXT;
UPDATE games SET headers = (
    SELECT group_concat(line, char(10)) FROM (
        SELECT replace(replace(replace(key, '\', '\\'), char(9), '\t'), char(10), '\n')
               || char(9) ||
               replace(replace(replace(value, '\', '\\'), char(9), '\t'), char(10), '\n') AS line
        FROM headers h WHERE h.game_id = games.id ORDER BY ord
    )
);
DROP TABLE headers;

-- Event and opening are searched by part of the name, which no index helps.
DROP INDEX games_event;
DROP INDEX games_opening;
