//! The store's codecs: a game's columns (moves, times, headers, comments, the variations'
//! tree) and a postings block, from arbitrary bytes: an error, never a panic. And every
//! record read from the input reads back from the columns the writer makes of it with the
//! same start, moves and headers.
#![no_main]

use kifudex::notation::{Format, Record, read_bytes};
use kifudex::store::postings::fuzz_block;
use kifudex::store::{GameRow, HeaderColumns, read_back, read_columns};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let columns = HeaderColumns {
        sente: Some("甲"),
        event: Some("竜王戦"),
        handicap: Some("平手"),
        ..HeaderColumns::default()
    };
    let half = data.len() / 2;
    let _ = read_columns(
        None,
        "平手",
        data,
        Some(data),
        Some("resign"),
        Some(data),
        Some((&text, columns)),
        Some(&text),
    );
    // The tree's marker first, so that the bytes after it are read as a tree.
    let tree = [&[0x07u8][..], &data[half..]].concat();
    let _ = read_columns(
        None,
        "平手",
        &data[..half & !1],
        Some(&data[half..]),
        None,
        Some(&tree),
        None,
        None,
    );
    let _ = fuzz_block(data);
    let moves = |r: &Record| r.main.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    for game in &read_bytes(data, None).games {
        let row = GameRow::with_positions(game, Format::Kif, true);
        let back = read_back(&row).expect("the columns the writer made read back");
        assert_eq!(back.start, game.start);
        assert_eq!(moves(&back), moves(game));
        assert_eq!(back.headers, game.headers);
    }
});
