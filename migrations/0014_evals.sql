-- kifudex schema 14: evaluations (docs/evaluations.md). A game without evaluations has no
-- row anywhere here.

-- A game's evaluations as the questions read them (blunders, stats --evals, the players'
-- losses, the filter's --swing, --evaluated and --eval-at): those its record's engine
-- comments carry (written at import; the migration reads them from the stored comments), or
-- those of the last engine analysis that covered the whole main line (kifudex analyse).
CREATE TABLE game_evals (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    evals    BLOB NOT NULL,    -- the stored form: a 4-byte word per evaluated ply (kifudex_evals::stored)
    first    INTEGER NOT NULL, -- who plays the first move: 0 sente, 1 gote (a handicap game)
    result   INTEGER,          -- as games.winner: 0 sente won, 1 gote won, 2 draw, NULL unknown
    swing    INTEGER,          -- the deciding swing (kifudex_evals::drops::deciding_swing), or NULL
    analysis INTEGER REFERENCES engine_analyses(id) -- NULL: the record's; else the analysis they are
);
CREATE INDEX game_evals_swing ON game_evals(swing) WHERE swing IS NOT NULL;

-- An engine and a search limit `kifudex analyse` ran: a position is analysed once for each.
CREATE TABLE engine_analyses (
    id      INTEGER PRIMARY KEY,
    engine  TEXT NOT NULL, -- its `id name`, then the options set: `Fairy-Stockfish 11.1 [Threads=1]`
    limits  TEXT NOT NULL, -- `nodes 100000`, `movetime 500`, `depth 12` or `byoyomi 1000`
    command TEXT NOT NULL, -- the command line of its first run
    options TEXT NOT NULL, -- the options of its first run, a JSON object
    UNIQUE (engine, limits)
);

-- What an analysis found in the main-line positions of a game, from ply 0 on (a run that
-- stops leaves the row of a game it was in the middle of; the next run goes on from there).
CREATE TABLE engine_evals (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    analysis  INTEGER NOT NULL REFERENCES engine_analyses(id),
    positions INTEGER NOT NULL, -- positions analysed: plies 0 to positions - 1
    evals     BLOB NOT NULL,    -- their evaluations, stored form (a position without a score has none)
    details   BLOB NOT NULL,    -- per position: best move, nodes, the PV's start (crates/db/src/store/evals/details.rs)
    PRIMARY KEY (game_id, analysis)
);
