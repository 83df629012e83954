-- kifudex schema 11: the games of each recognised name are kept as lists, one row per name,
-- side and transaction that wrote them, instead of an index of the `recognised` rows by
-- name. An index entry cost every recognised row an insert at a random place (or, in a bulk
-- import, a sort at its end): a third of what recognition cost an import. A list is one
-- row for the hundreds or thousands of games a transaction wrote with that name.
DROP INDEX IF EXISTS recognised_name;

CREATE TABLE recognised_names (
    name_id    INTEGER NOT NULL,
    side       INTEGER NOT NULL, -- 0 sente (下手), 1 gote (上手)
    first_game INTEGER NOT NULL, -- the smallest id of the list
    games      TEXT NOT NULL,    -- the games' ids, a JSON array in ascending order
    PRIMARY KEY (name_id, side, first_game)
) WITHOUT ROWID;

-- The rows already recognised, in lists of at most 8192 consecutive ids. (A deleted game's
-- id may stay in a list: ids are never given again, and a list is read against `games`.)
INSERT INTO recognised_names (name_id, side, first_game, games)
    SELECT name_id, side, min(game_id), json_group_array(game_id)
    FROM (SELECT name_id, side, game_id FROM recognised ORDER BY name_id, side, game_id)
    GROUP BY name_id, side, game_id >> 13;
