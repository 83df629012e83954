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
