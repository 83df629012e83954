//! The CSA reader on arbitrary bytes: nothing may panic; every game read without errors reads
//! back the same after writing it as CSA V3.0 (headers, start, comments, engine lines, notes,
//! moves, times, terminal), and with the same moves and terminal after writing it as V2.2
//! (whose times are whole seconds); a file's games all come back when written together; and
//! a CSA file read in pieces (as an import reads a big one) gives the games, errors and lines
//! of the whole.
#![no_main]

use kifudex::notation::csa::pieces::{CsaPieces, can_read_in_pieces};
use kifudex::notation::csa::{CsaVersion, read_csa, write_csa, write_csa_games};
use kifudex::notation::decode::decode_cut;
use kifudex::notation::{Format, read_bytes, read_bytes_each};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::path::Path::new("fuzz.csa");
    let _ = read_bytes(data, Some(path));
    let mut whole = Vec::new();
    let file = read_bytes_each(data, Some(path), &mut |r, _| whole.push(r));
    let (_, encoding, _) = decode_cut(data);
    if file.format == Some(Format::Csa) && can_read_in_pieces(encoding, data) {
        let piece = 1 + data.first().map_or(0, |&b| b as usize % 97);
        let mut pieces = Vec::new();
        let (read, stopped) =
            CsaPieces::new(encoding)
                .read_from(&mut &data[..], piece, u64::MAX, &mut |r, _| pieces.push(r));
        assert!(stopped.is_none());
        assert_eq!(read.error, file.error);
        assert_eq!(pieces, whole, "in pieces of {piece}");
    }
    let text = String::from_utf8_lossy(data);
    let games = read_csa(&text);
    for game in &games {
        if !game.errors.is_empty() {
            continue;
        }
        let written = write_csa(game, CsaVersion::V3_0);
        let again = read_csa(&written);
        assert_eq!(again.len(), 1, "{written}");
        let again = &again[0];
        assert_eq!(again.errors, [], "{written}");
        assert_eq!(again.headers, game.headers);
        assert_eq!(again.start, game.start);
        assert_eq!(again.start_comments, game.start_comments);
        assert_eq!(again.start_engine, game.start_engine);
        assert_eq!(again.main, game.main);
        assert_eq!(again.notes, game.notes);

        let v2 = read_csa(&write_csa(game, CsaVersion::V2_2));
        assert_eq!(v2.len(), 1);
        assert_eq!(v2[0].errors, []);
        let moves = |g: &kifudex::notation::Record| -> Vec<_> {
            g.main.moves.iter().map(|m| m.mv).collect()
        };
        assert_eq!(moves(&v2[0]), moves(game));
        assert_eq!(v2[0].terminal(), game.terminal());
        assert_eq!(v2[0].result(), game.result());
    }
    if !games.is_empty() && games.iter().all(|g| g.errors.is_empty()) {
        let again = read_csa(&write_csa_games(&games, CsaVersion::V3_0));
        assert_eq!(again.len(), games.len());
        for (a, b) in again.iter().zip(&games) {
            assert_eq!(a.main, b.main);
        }
    }
});
