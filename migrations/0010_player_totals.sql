-- kifudex schema 10: each player's totals, kept by the writer as games come and go, so that
-- `kifudex players` lists every player without reading every game. The rows are filled by
-- the program (src/store/players.rs) right after this file, in the same transaction.

-- A player's games on one side: how many, their results, the first and last date.
CREATE TABLE player_totals (
    player     INTEGER NOT NULL,
    side       INTEGER NOT NULL, -- 0 sente (下手), 1 gote (上手)
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    first_date TEXT,
    last_date  TEXT,
    PRIMARY KEY (player, side)
) WITHOUT ROWID;

-- A player's games on one side by opening: the header's 戦型, or the recognised label when
-- the header has none.
CREATE TABLE player_openings (
    player  INTEGER NOT NULL,
    side    INTEGER NOT NULL,
    opening TEXT NOT NULL,
    games   INTEGER NOT NULL,
    PRIMARY KEY (player, side, opening)
) WITHOUT ROWID;
