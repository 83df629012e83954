-- kifudex schema 3: fewer rows written per game.

-- Comments move into the games row, as a JSON array of [ply, kind, text] in order (NULL when
-- the game has none). The view `comments` shows them as rows, as schema 1 stored them.
ALTER TABLE games ADD COLUMN comments TEXT;
UPDATE games SET comments = (
    SELECT json_group_array(json_array(ply, kind, text)) FROM (
        SELECT ply, kind, text FROM comments c WHERE c.game_id = games.id ORDER BY ply, ord
    )
) WHERE id IN (SELECT game_id FROM comments);
DROP TABLE comments;
CREATE VIEW comments AS
    SELECT g.id AS game_id, j.value ->> 0 AS ply, j.key AS ord, j.value ->> 1 AS kind,
           j.value ->> 2 AS text
    FROM games g, json_each(g.comments) j
    WHERE g.comments IS NOT NULL;

-- A game's first source is in its own row (source_id, game_index): game_sources keeps only
-- the other places it was read, one row per duplicate.
DELETE FROM game_sources WHERE EXISTS (
    SELECT 1 FROM games g
    WHERE g.id = game_sources.game_id AND g.source_id = game_sources.source_id
      AND g.game_index = game_sources.game_index
);
