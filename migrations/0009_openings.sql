-- kifudex schema 4: openings (戦型), strategies (戦法) and castles (囲い) recognised from the
-- moves (src/classify). The rows are filled by the program, not here: a database whose
-- `classify_version` in meta differs from the program's (none, after this migration) has
-- them computed again from the stored moves by the next command that opens it.

-- The names recognised so far, numbered: rows below name them by number (a few bytes
-- instead of a Japanese string per row and per index entry).
CREATE TABLE opening_names (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL -- strategy, castle
);

-- One row per name recognised for one side of a game, with the first ply it held at.
CREATE TABLE recognised (
    game_id INTEGER NOT NULL,
    side    INTEGER NOT NULL, -- 0 sente (下手), 1 gote (上手)
    name_id INTEGER NOT NULL,
    ply     INTEGER NOT NULL,
    PRIMARY KEY (game_id, side, name_id)
) WITHOUT ROWID;
CREATE INDEX recognised_name ON recognised(name_id, side, game_id);

-- The same rows by name, as a reader would want them.
CREATE VIEW recognised_items AS
    SELECT r.game_id, CASE r.side WHEN 0 THEN 'sente' ELSE 'gote' END AS side, n.kind, n.name,
           r.ply
    FROM recognised r JOIN opening_names n ON n.id = r.name_id;

-- The game's recognised opening label (四間飛車, 相振り飛車, 矢倉, 力戦, その他の戦型); NULL when
-- not recognised (a position set up by hand) or not yet computed.
ALTER TABLE games ADD COLUMN label TEXT;
