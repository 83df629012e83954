-- kifudex schema 12: checksums of what answers queries, checked when it is read, so that a
-- damaged byte is an error that names what is damaged and how to mend it (`kifudex check
-- --repair`), never a quiet wrong answer. Each is a CRC-32 (IEEE) kept as an integer:
--   position_blocks.crc: of the block's segment and first key (8 bytes each, little-endian)
--     and its data;
--   position_segments.crc: of first_game, last_game, games, entries (8 bytes each) and the
--     results and dates columns;
--   games.moves_crc: of the moves column.
-- The migration computes them for what is there (a Rust step: store/checksum.rs).
ALTER TABLE position_blocks ADD COLUMN crc INTEGER;
ALTER TABLE position_segments ADD COLUMN crc INTEGER;
ALTER TABLE games ADD COLUMN moves_crc INTEGER;
