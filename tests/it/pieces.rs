//! Big files read in pieces: a CSA file of more than twice `ImportOptions::piece_bytes` is
//! read a piece at a time, each ending after a game separator, and must give exactly what the
//! whole file gives: the same games, the same errors at the same lines, the same source row
//! (hash, encoding, format). Other formats are read whole, up to the limit on one source.

use std::path::{Path, PathBuf};

use kifudex::ingest::{ContentHasher, ImportOptions, Observer, Problem, content_hash, import};
use kifudex::notation::decode::{Utf8Survey, decode_cut};
use kifudex::store::Store;

use crate::util::Rng;
use crate::util::TempDb;

#[derive(Default)]
struct Problems(Vec<String>);

impl Observer for Problems {
    fn problem(&mut self, p: &Problem) {
        self.0.push(p.to_string());
    }
}

/// A CSA file of `games` games of every shape the reader meets: names beyond ASCII, comments,
/// times, moves that cannot be applied (errors at their lines), CRLF lines, separators with
/// spaces, blank lines, a game with a long comment (longer than a small piece), and no line
/// end after the last.
fn csa_file(games: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let moves = [
        "+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA", "-4132KI",
    ];
    let mut out = String::new();
    for g in 0..games {
        let nl = if g % 7 == 3 { "\r\n" } else { "\n" };
        let mut lines = vec![
            "V2.2".to_string(),
            format!("N+先手{g}"),
            format!("N-gote{g}"),
            format!("$EVENT:棋戦{}", g % 5),
            "PI".to_string(),
            "+".to_string(),
        ];
        let n = if g % 9 == 4 {
            4
        } else {
            1 + rng.below(moves.len())
        };
        for (i, m) in moves.iter().take(n).enumerate() {
            // Every ninth game plays a pawn onto its own piece at its third move.
            if g % 9 == 4 && i == 2 {
                lines.push("+7776FU".into());
            } else {
                lines.push(m.to_string());
            }
            lines.push(format!("T{}", 1 + rng.below(30)));
            if rng.below(4) == 0 {
                lines.push(format!("'コメント {g} {i}"));
            }
        }
        if g % 13 == 6 {
            lines.push(format!("'{}", "長".repeat(900)));
        }
        if g % 2 == 0 {
            lines.push("%TORYO".into());
        }
        if g % 11 == 5 {
            lines.push(String::new());
        }
        out.push_str(&lines.join(nl));
        if g + 1 < games {
            out.push_str(nl);
            out.push_str(if g % 5 == 2 { " / \t" } else { "/" });
            out.push_str(nl);
        }
    }
    out
}

/// Imports `file` with `options`; every game as stored, what was reported, and the source row.
fn import_file(
    db: &Path,
    file: &Path,
    options: &ImportOptions,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut store = Store::create(db).unwrap();
    let mut seen = Problems::default();
    let summary = import(
        &mut store,
        &[file.to_path_buf()],
        options,
        &mut seen,
        &kifudex::progress::Quiet,
    )
    .unwrap();
    let mut games = Vec::new();
    for id in 1..=summary.games as i64 {
        let g = store.game(id).unwrap().unwrap();
        games.push(format!(
            "{} {} {:?} {} {:?}",
            g.game_index, g.plies, g.winner, g.incomplete, g.record
        ));
    }
    drop(store);
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let sources = conn
        .prepare("SELECT size, content_hash, format, encoding, games, error FROM sources")
        .unwrap()
        .query_map([], |r| {
            Ok(format!(
                "{:?} {:?} {:?} {:?} {:?} {:?}",
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<String>>(5)?
            ))
        })
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    (games, seen.0, sources)
}

fn pieces(bytes: usize) -> ImportOptions {
    ImportOptions {
        piece_bytes: bytes,
        ..ImportOptions::default()
    }
}

/// Writes `bytes` as `name` in a fresh directory; its path.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The whole file and the file in pieces of several sizes (down to one byte, where every
/// piece is one game) give the same database and the same reports, for UTF-8 with and
/// without BOM, Shift-JIS, and a UTF-8 file cut inside its last character.
#[test]
fn a_csa_file_in_pieces_reads_as_the_whole_file() {
    let dir = TempDb::new("pieces-same");
    let text = csa_file(80, 7);
    let sjis = encoding_rs::SHIFT_JIS.encode(&text).0.into_owned();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(text.as_bytes());
    // Cut inside the last character of a comment that ends the file.
    let mut cut = text.as_bytes().to_vec();
    cut.extend_from_slice("\n'終わ".as_bytes());
    cut.pop();
    let cases: [(&str, &[u8], &str); 4] = [
        ("utf8", text.as_bytes(), "utf-8"),
        ("bom", &bom, "utf-8"),
        ("sjis", &sjis, "shift_jis"),
        ("cut", &cut, "utf-8"),
    ];
    for (name, bytes, encoding) in cases {
        let file = write(&dir, &format!("{name}.csa"), bytes);
        let whole = import_file(&dir.join(format!("{name}-whole")), &file, &pieces(16 << 20));
        assert_eq!(whole.0.len(), 80, "{name}");
        assert!(whole.2[0].contains(encoding), "{name}: {:?}", whole.2);
        // The file has errors to place: the ninth games' moves, the cut end.
        let errors = whole.1.iter().filter(|e| e.contains("csa:")).count();
        assert!(errors >= 9, "{name}: {:?}", whole.1);
        if name == "cut" {
            assert!(
                whole
                    .1
                    .last()
                    .unwrap()
                    .contains("ends inside a UTF-8 character"),
                "{:?}",
                whole.1
            );
        }
        for piece in [1, 300, 1000, 4096] {
            assert!(
                bytes.len() > 2 * piece,
                "{name}: the file is read in pieces"
            );
            let db = dir.join(format!("{name}-{piece}"));
            let got = import_file(&db, &file, &pieces(piece));
            assert_eq!(got.0, whole.0, "{name} in pieces of {piece}: games");
            assert_eq!(got.1, whole.1, "{name} in pieces of {piece}: reports");
            assert_eq!(got.2, whole.2, "{name} in pieces of {piece}: source");
        }
    }
}

/// A CSA file bigger than the most one source may hold is read all the same, in pieces; a
/// file of another format that big is refused, and one under the limit is read whole.
#[test]
fn only_a_csa_file_may_pass_the_limit_on_one_source() {
    let dir = TempDb::new("pieces-limit");
    let text = csa_file(60, 3);
    let csa = write(&dir, "big.csa", text.as_bytes());
    let options = ImportOptions {
        piece_bytes: 1000,
        max_source_bytes: 4000,
        ..ImportOptions::default()
    };
    assert!(text.len() > 2 * 4000);
    let (games, reports, sources) = import_file(&dir.join("db-csa"), &csa, &options);
    assert_eq!(games.len(), 60);
    assert!(
        reports.iter().all(|r| !r.contains("larger than")),
        "{reports:?}"
    );
    assert!(sources[0].contains("\"csa\""), "{sources:?}");

    // KIF: over twice the piece, under the limit, read whole; over the limit, refused.
    let mut kif = String::from("先手：a\n後手：b\n手数----指手---------消費時間--\n");
    kif.push_str("   1 ７六歩(77)\n   2 ３四歩(33)\n");
    for i in 0..150 {
        kif.push_str(&format!("*コメント {i}\n"));
    }
    kif.push_str("   3 投了\n");
    let small = ImportOptions {
        piece_bytes: 1000,
        max_source_bytes: 1 << 20,
        ..ImportOptions::default()
    };
    let path = write(&dir, "long.kif", kif.as_bytes());
    assert!(kif.len() > 2000);
    let (games, reports, _) = import_file(&dir.join("db-kif"), &path, &small);
    assert_eq!((games.len(), reports.len()), (1, 0), "{reports:?}");
    let tight = ImportOptions {
        max_source_bytes: 2100,
        ..small
    };
    let (games, reports, _) = import_file(&dir.join("db-kif-big"), &path, &tight);
    assert_eq!(games.len(), 0);
    assert_eq!(
        reports,
        [format!(
            "{}: larger than 2100 bytes, the most kifudex reads of one file or archive entry: not read",
            path.display()
        )]
    );
}

/// A game longer than the most one source may hold, in a CSA file read in pieces, ends the
/// reading there: the games before it are kept, and the error says why.
#[test]
fn a_csa_game_over_the_limit_stops_the_file_there() {
    let dir = TempDb::new("pieces-long-game");
    let mut text = csa_file(10, 5);
    text.push_str("\n/\nV2.2\nPI\n+\n+7776FU\n'");
    text.push_str(&"x".repeat(20_000));
    text.push_str("\n/\n");
    text.push_str(&csa_file(3, 6));
    let file = write(&dir, "long.csa", text.as_bytes());
    let options = ImportOptions {
        piece_bytes: 1000,
        max_source_bytes: 8000,
        ..ImportOptions::default()
    };
    let (games, reports, sources) = import_file(&dir.join("db"), &file, &options);
    assert_eq!(games.len(), 10);
    let msg = "a game runs over 8000 bytes: the rest of the file is not read";
    assert!(reports[0].ends_with(msg), "{reports:?}");
    assert!(sources[0].contains(msg), "{sources:?}");
}

/// The hash of a file read a block at a time is the hash of the whole, however it is cut.
#[test]
fn the_content_hash_of_blocks_is_the_hash_of_the_whole() {
    let mut rng = Rng::new(11);
    for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 1000] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        for _ in 0..20 {
            let mut h = ContentHasher::new(len as u64);
            let mut at = 0;
            while at < len {
                let n = (1 + rng.below(20)).min(len - at);
                h.update(&bytes[at..at + n]);
                at += n;
            }
            assert_eq!(h.finish(), content_hash(&bytes), "{len}");
        }
    }
}

/// The survey of a file's blocks decides as `decode_cut` does on the whole: UTF-8 (with the
/// bytes a cut end drops) or not, whatever the cuts between blocks.
#[test]
fn the_utf8_survey_of_blocks_decides_as_the_whole() {
    let samples: Vec<Vec<u8>> = vec![
        "plain ascii\n".into(),
        "先手：羽生\n▲７六歩\n".into(),
        b"\xEF\xBB\xBFN+\xE7\xBE\xBD\n".to_vec(),
        // Cut inside its last character: UTF-8 (beyond ASCII before it).
        b"\xE5\x85\x88\xE6\x89".to_vec(),
        // ASCII ending in a partial character: not UTF-8 (could as well be CP932).
        b"abc\xE6\x89".to_vec(),
        // Shift-JIS.
        b"\x90\xe6\x8e\xe8\x81\x46\n".to_vec(),
        // A bad byte in the middle.
        b"\xE5\x85\x88\xFF\xE5\x85\x88".to_vec(),
        b"\xEF\xBB".to_vec(),
        Vec::new(),
    ];
    for s in &samples {
        let (_, encoding, cut) = decode_cut(s);
        let expected = (encoding == kifudex::notation::Encoding::Utf8).then_some(cut);
        // Every cut into blocks, the first holding at least three bytes (as a file read
        // by whole buffers: where a BOM stands).
        for a in 3.min(s.len())..=s.len() {
            for b in a..=s.len() {
                let mut survey = Utf8Survey::new();
                for block in [&s[..a], &s[a..b], &s[b..]] {
                    if !block.is_empty() {
                        survey.update(block);
                    }
                }
                assert_eq!(survey.finish(), expected, "{s:?} cut at {a}, {b}");
            }
        }
    }
}

/// A file that is not UTF-8 but starts with a byte-order mark is decoded whole by the mark's
/// encoding (UTF-16, whose line ends are two bytes), never in pieces: a UTF-16 CSA file, and
/// bytes of CSA behind a UTF-16 mark (found by the `csa` fuzz target), read as the whole does.
#[test]
fn a_file_behind_a_utf16_mark_is_never_cut() {
    let dir = TempDb::new("pieces-bom");
    let text = csa_file(40, 9);
    let mut utf16 = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let mut junk = vec![0xFF, 0xFE];
    junk.extend_from_slice(text.as_bytes());
    for (name, bytes, games) in [("utf16", &utf16, Some(40)), ("junk", &junk, None)] {
        let file = write(&dir, &format!("{name}.csa"), bytes);
        let whole = import_file(&dir.join(format!("{name}-whole")), &file, &pieces(16 << 20));
        if let Some(n) = games {
            assert_eq!(whole.0.len(), n, "{name}: {:?}", whole.1);
        }
        let got = import_file(&dir.join(format!("{name}-300")), &file, &pieces(300));
        assert_eq!(got, whole, "{name}");
    }
}
