-- kifudex schema 11: what was recognised in a game moves into its games row, and the games
-- of each recognised name are kept as lists.
--
-- A row per recognised name (four a game) and an index entry for each cost an import a
-- third of what recognition cost it. Now the game's names are one JSON value in the row the
-- import writes anyway, `recognised` and `recognised_items` are views that read them as rows,
-- and the index by name is `recognised_names`: one row per name, side and transaction that
-- wrote games with it (hundreds or thousands of games).

ALTER TABLE games ADD COLUMN recognised TEXT;

-- The names a game was recognised with, as `[[side, name_id, ply], ...]` by side, ply and
-- name (those a name below them implies left out, as before).
UPDATE games SET recognised = (
    SELECT json_group_array(json_array(side, name_id, ply))
    FROM (SELECT side, name_id, ply FROM recognised r WHERE r.game_id = games.id
          ORDER BY side, ply, name_id))
WHERE id IN (SELECT game_id FROM recognised);

CREATE TABLE recognised_names (
    name_id    INTEGER NOT NULL,
    side       INTEGER NOT NULL, -- 0 sente (下手), 1 gote (上手)
    first_game INTEGER NOT NULL, -- the smallest id of the list
    games      TEXT NOT NULL,    -- the games' ids, a JSON array in ascending order
    PRIMARY KEY (name_id, side, first_game)
) WITHOUT ROWID;

-- The games already recognised, in lists of ids within one range of 8192. (A removed game's
-- id may stay in a list: ids are never given again, and a list is read against `games`.)
INSERT INTO recognised_names (name_id, side, first_game, games)
    SELECT name_id, side, min(game_id), json_group_array(game_id)
    FROM (SELECT name_id, side, game_id FROM recognised ORDER BY name_id, side, game_id)
    GROUP BY name_id, side, game_id >> 13;

DROP VIEW recognised_items;
DROP INDEX IF EXISTS recognised_name;
DROP TABLE recognised;

-- One row per name recognised for one side of a game, with the first ply it held at, as
-- the table of schema 4 to 10 had them.
CREATE VIEW recognised AS
    SELECT g.id AS game_id, json_extract(j.value, '$[0]') AS side,
           json_extract(j.value, '$[1]') AS name_id, json_extract(j.value, '$[2]') AS ply
    FROM games g, json_each(g.recognised) j
    WHERE g.recognised IS NOT NULL;

-- The same rows with the names, as a reader would want them.
CREATE VIEW recognised_items AS
    SELECT r.game_id, CASE r.side WHEN 0 THEN 'sente' ELSE 'gote' END AS side, n.kind, n.name,
           r.ply
    FROM recognised r JOIN opening_names n ON n.id = r.name_id;
