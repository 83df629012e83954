-- kifudex schema 16: the opening totals also count each game's pairing (kind 'pair', side
-- -1, the name `classify::pairing` gives: "四間飛車 vs 居飛車穴熊"), so that `openings --pairs`
-- over the whole database answers from the totals instead of reading every game. The
-- program counts the totals again right after this file (a Rust step, store/labels.rs).
DELETE FROM opening_totals WHERE kind = 'pair';
