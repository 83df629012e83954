-- kifudex schema 5: the duplicate key (games.fingerprint) holds everything that tells two games
-- apart: start position, moves, terminal, date and time of day, both players (normalised) and
-- the event. Before, games with the same moves, terminal and date but other players were
-- stored as one. The program recomputes every game's key right after this file (a Rust step of
-- the migration runner, store/rekey.rs). A game merged under the old key keeps the first
-- file's record; the files linked to it as duplicates are marked here to be read again by the
-- next import, which stores what they hold as games of their own when they differ.
UPDATE sources SET mtime = -1, content_hash = ''
WHERE id IN (SELECT source_id FROM game_sources);
