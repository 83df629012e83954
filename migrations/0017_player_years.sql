-- kifudex schema 17: the players' totals also by year, so that `kifudex players` over a span
-- of dates sums the years it spans whole and reads only the games of the years it cuts (as
-- `openings` does with the opening totals). Both tables gain `year`: the game's year, 0 for a
-- game without a date, and -1 for the rows over every year, which `players` over every game
-- reads. The rows are kept by year first: a span of years, or every year, is one range of
-- each table. The program counts the rows again right after this file, in the same
-- transaction (a Rust step: store/labels.rs counts them with the opening totals).

DROP TABLE player_totals;
DROP TABLE player_openings;

-- A player's games on one side in one year (-1: every year): how many, their results, the
-- first and last date.
CREATE TABLE player_totals (
    player     INTEGER NOT NULL,
    side       INTEGER NOT NULL, -- 0 sente (下手), 1 gote (上手)
    year       INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    first_date TEXT,
    last_date  TEXT,
    PRIMARY KEY (year, player, side)
) WITHOUT ROWID;

-- A player's games on one side in one year (-1: every year) by opening: the header's 戦型,
-- or the recognised label when the header has none.
CREATE TABLE player_openings (
    player  INTEGER NOT NULL,
    side    INTEGER NOT NULL,
    year    INTEGER NOT NULL,
    opening TEXT NOT NULL,
    games   INTEGER NOT NULL,
    PRIMARY KEY (year, player, side, opening)
) WITHOUT ROWID;
