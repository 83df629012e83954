//! Evaluations read from the records' engine comments: one sample of each dialect (made for
//! kifudex, in tests/data/evals), every record of the shared corpus that carries engine
//! comments (plies checked by hand against the files), the conversions, and `kifudex parse`.

use std::path::{Path, PathBuf};

use kifudex::evals::{self, Score, Source};
use kifudex::notation::{Record, read_bytes};
use kifudex::shogi::Color;
use serde_json::json;

use crate::util::{Kifudex, corpus_root};

/// One expected evaluation: ply, score, depth, nodes, source, analysis, best move (USI).
type Want = (
    usize,
    Score,
    Option<u32>,
    Option<u64>,
    Source,
    bool,
    Option<&'static str>,
);

fn v(n: i32) -> Score {
    Score::Value(n)
}

fn mate(winner: Color, plies: Option<u32>) -> Score {
    Score::Mate { winner, plies }
}

const B: Color = Color::Black;
const W: Color = Color::White;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/evals")
        .join(name)
}

/// The first game of a file, as `kifudex parse` reads it; it must read without error.
fn read(path: &Path) -> Record {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = read_bytes(&bytes, Some(path));
    assert_eq!(file.error, None, "{}", path.display());
    let game = file.games.into_iter().next().expect("a game");
    assert!(!game.has_errors(), "{}: {:?}", path.display(), game.errors);
    game
}

/// [`Want`] with the best move owned.
type Got = (
    usize,
    Score,
    Option<u32>,
    Option<u64>,
    Source,
    bool,
    Option<String>,
);

fn owned(w: &Want) -> Got {
    (w.0, w.1, w.2, w.3, w.4, w.5, w.6.map(str::to_string))
}

/// The record's evaluations, each with the best move its variation gives.
fn got(rec: &Record) -> Vec<Got> {
    let evals = evals::read(rec);
    let best = evals::best_moves(rec, &evals);
    evals
        .iter()
        .zip(best)
        .map(|(e, b)| {
            let best = b.map(|m| m.usi());
            (e.ply, e.score, e.depth, e.nodes, e.source, e.analysis, best)
        })
        .collect()
}

fn check(name: &str, want: &[Want]) {
    let rec = read(&sample(name));
    let want: Vec<Got> = want.iter().map(owned).collect();
    assert_eq!(got(&rec), want, "{name}");
}

#[test]
fn floodgate_engine_lines_in_csa() {
    use Source::Csa;
    check(
        "floodgate.csa",
        &[
            // Book moves: the engines send 0 and no variation.
            (1, v(0), None, None, Csa, false, None),
            (2, v(0), None, None, Csa, false, None),
            (3, v(48), None, None, Csa, false, Some("8c8d")),
            (4, v(-12), None, None, Csa, false, Some("2f2e")),
            // A variation in USI that repeats the move played: read from the move after it.
            (5, v(63), None, None, Csa, false, Some("8d8e")),
            // `#523000` after the variation is the node count, not a mate.
            (6, v(-40), None, Some(523_000), Csa, false, Some("6i7h")),
            (7, v(57), None, None, Csa, false, None),
            // A variation starting with another move of the side that played: dropped.
            (8, v(-31), None, None, Csa, false, None),
            // Values are kept as written, however large.
            (9, v(100_000), None, None, Csa, false, Some("2c2d")),
            (10, v(i32::MIN), None, None, Csa, false, Some("2h2d")),
        ],
    );
}

#[test]
fn shogihome_key_value_lines_in_kif() {
    use Source::ShogiHome as S;
    check(
        "shogihome.kifu",
        &[
            (2, v(-35), Some(18), Some(1_250_000), S, false, Some("2g2f")),
            // Both the player's (`**`) and an analysis (`*#`) on ply 4: the analysis is kept.
            (4, v(42), Some(24), Some(9_000_000), S, true, Some("2f2e")),
            (5, v(51), None, None, S, true, Some("8d8e")),
            (6, mate(B, Some(9)), None, None, S, false, Some("2e2d")),
            (7, mate(W, None), None, None, S, true, None),
        ],
    );
    check(
        "shogihome.csa",
        &[
            (2, v(-35), Some(8), None, S, false, Some("2g2f")),
            (3, v(70), None, None, S, true, Some("8c8d")),
        ],
    );
    check(
        "shogihome.ki2",
        &[
            (2, v(-20), None, None, S, false, Some("2g2f")),
            (3, v(33), Some(12), None, S, true, None),
        ],
    );
}

#[test]
fn shogigui_game_and_analysis_lines() {
    use Source::ShogiGui as G;
    // Shift-JIS, as ShogiGUI saves .kif; each 対局 variation starts with the move played.
    check(
        "shogigui.kif",
        &[
            (1, v(52), Some(15), Some(480_000), G, false, Some("3c3d")),
            // Bound arrows after the value are dropped.
            (2, v(-44), Some(16), Some(510_000), G, false, Some("2g2f")),
            (3, v(61), Some(15), Some(495_000), G, false, Some("8c8d")),
            (4, v(-38), Some(14), Some(230_000), G, false, None),
            (5, mate(B, Some(5)), Some(30), Some(90_000), G, false, None),
            (
                6,
                mate(W, None),
                Some(31),
                Some(80_000),
                G,
                false,
                Some("6i7h"),
            ),
        ],
    );
    check(
        "shogigui-analysis.kifu",
        &[
            // On move 1, a variation of sente's that is not ７六歩: the start position, where
            // the engine prefers ２六歩.
            (0, v(40), Some(22), Some(3_000_000), G, true, Some("2g2f")),
            // 候補2 lines are left out.
            (2, v(55), Some(23), Some(3_100_000), G, true, Some("2g2f")),
            (3, v(48), Some(22), Some(2_900_000), G, true, Some("8c8d")),
            (
                4,
                mate(B, Some(13)),
                Some(24),
                Some(3_300_000),
                G,
                true,
                Some("2f2e"),
            ),
        ],
    );
}

#[test]
fn kishin_piyo_kshogi_and_floodgate_lines_in_kif() {
    check(
        "kishin.kifu",
        &[
            (
                2,
                v(72),
                Some(18),
                Some(700_000),
                Source::Kishin,
                true,
                Some("7g7f"),
            ),
            (
                3,
                v(-5),
                Some(18),
                Some(710_000),
                Source::Kishin,
                true,
                Some("4c4d"),
            ),
        ],
    );
    check(
        "piyo.kif",
        &[
            (1, v(35), None, None, Source::Piyo, true, Some("3c3d")),
            (2, v(41), None, None, Source::Piyo, true, Some("2g2f")),
            // 推奨手 (the move it would have played) and 定跡 lines are not evaluations here.
            (3, v(-30), None, None, Source::Piyo, true, Some("8c8d")),
        ],
    );
    check(
        "kshogi.kif",
        &[
            (1, v(25), None, None, Source::KShogi, true, None),
            (2, v(-18), None, None, Source::KShogi, true, Some("2g2f")),
        ],
    );
    check(
        "csa-in-kif.kifu",
        &[
            (
                2,
                v(-35),
                None,
                Some(12_345),
                Source::Csa,
                false,
                Some("2f2e"),
            ),
            (
                4,
                v(120),
                None,
                Some(18_000),
                Source::Csa,
                false,
                Some("6i7h"),
            ),
        ],
    );
}

#[test]
fn comments_for_people_and_records_without_engine_lines_give_nothing() {
    // Numbers in comments for people, a `*` line that is no engine line, and a `#` comment
    // that names no field: none is an evaluation.
    let kif = "手合割：平手\n   1 ７六歩(77)\n*30\n*評価値=50\n#メモ\n   2 ３四歩(33)\n*#メモ=1\n*#評価値=abc\n";
    let rec = read_bytes(kif.as_bytes(), None).games.remove(0);
    assert_eq!(rec.main.moves.len(), 2);
    assert_eq!(evals::read(&rec), []);
    let csa = "PI\n+\n+7776FU\n'* 30 -3334FU\n'30 -3334FU\n-3334FU\n";
    let rec = read_bytes(csa.as_bytes(), None).games.remove(0);
    assert_eq!(evals::read(&rec), []);
    // Engine lines that are no evaluation: text, a mate word without a number.
    let kif = "手合割：平手\n   1 ７六歩(77)\n**3手詰\n**対局 深さ 3\n**評価値=\n";
    let rec = read_bytes(kif.as_bytes(), None).games.remove(0);
    assert_eq!(evals::read(&rec), []);
}

#[test]
fn evaluations_survive_conversion_to_kif_csa_and_jkf() {
    use kifudex::notation::csa::{CsaVersion, write_csa};
    use kifudex::notation::jkf::write_jkf;
    use kifudex::notation::kif::write_kif;
    for name in [
        "floodgate.csa",
        "shogihome.kifu",
        "shogigui.kif",
        "shogigui-analysis.kifu",
        "piyo.kif",
    ] {
        let rec = read(&sample(name));
        let want = got(&rec);
        for text in [
            write_kif(&rec),
            write_csa(&rec, CsaVersion::V2_2),
            write_jkf(&rec),
        ] {
            let back = read_bytes(text.as_bytes(), None).games.remove(0);
            assert_eq!(got(&back), want, "{name} through\n{text}");
        }
    }
}

#[test]
fn parse_prints_the_evaluations() {
    let path = sample("shogigui.kif");
    let run = Kifudex::new()
        .args(["parse", path.to_str().unwrap()])
        .output()
        .success();
    let games = run.json_lines();
    assert_eq!(games.len(), 1);
    let e = |ply: u32, value: Option<i32>, mate: Option<i32>, depth: u32, best: Option<&str>| json!({"ply": ply, "value": value, "mate": mate, "depth": depth, "source": "shogigui", "best": best});
    let mut unknown = e(6, None, None, 31, Some("6i7h"));
    unknown["mate_for"] = json!("gote");
    assert_eq!(
        games[0]["evals"],
        json!([
            e(1, Some(52), None, 15, Some("3c3d")),
            e(2, Some(-44), None, 16, Some("2g2f")),
            e(3, Some(61), None, 15, Some("8c8d")),
            e(4, Some(-38), None, 14, None),
            e(5, None, Some(5), 30, None),
            unknown,
        ])
    );
    // A record without evaluations has an empty list.
    let plain = "手合割：平手\n   1 ７六歩(77)\n";
    let run = Kifudex::new()
        .args(["parse", "-"])
        .stdin(plain)
        .output()
        .success();
    assert_eq!(run.json_lines()[0]["evals"], json!([]));
}

/// A corpus file's evaluations: how many, and some plies checked by hand against the file.
fn pinned(path: &str, count: usize, plies: &[Want]) {
    let Some(root) = corpus_root() else {
        return;
    };
    let rec = read(&root.join(path));
    let all = got(&rec);
    assert_eq!(all.len(), count, "{path}");
    for want in plies {
        let at = all.iter().find(|g| g.0 == want.0);
        assert_eq!(at, Some(&owned(want)), "{path}, ply {}", want.0);
    }
}

#[test]
fn corpus_records_with_floodgate_engine_lines() {
    use Source::Csa as C;
    pinned(
        "shogi-kifu-converter/data/tests/csa/floodgate.csa",
        125,
        &[
            (1, v(113), None, None, C, false, Some("3c3d")),
            (2, v(126), None, None, C, false, Some("2f2e")),
            (123, v(3779), None, None, C, false, Some("G*8a")),
            (124, v(3460), None, None, C, false, Some("7f6g")),
            (125, v(4370), None, None, C, false, Some("P*8c")),
        ],
    );
    pinned(
        "shogi-kifu-converter/data/tests/csa/WCSC32_F7_NBS_DLS.csa",
        176,
        &[
            (1, v(41), None, None, C, false, Some("4a3b")),
            (2, v(54), None, None, C, false, Some("7g7f")),
            (175, v(-20964), None, None, C, false, Some("S*6g")),
            (176, v(-4774), None, None, C, false, Some("S*8b")),
        ],
    );
    // Book moves with `'** 0`; the last move has no line.
    pinned(
        "kif-parser-muzudho/docs/examples/csa/[floodgate]wdoor+floodgate-300-10F+Titanda_L+SILENT_MAJORITY_sf170225_6950XEE+20170302210003.csa",
        255,
        &[
            (1, v(0), None, None, C, false, None),
            (5, v(47), None, None, C, false, Some("2c2d")),
            (255, v(-1840), None, None, C, false, Some("2h1i")),
        ],
    );
    // 電竜戦: aobazero writes its variation in USI, starting with the move it played.
    pinned(
        "kifu-for-js/packages/json-kifu-format/test/files/csa/dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa",
        400,
        &[
            (1, v(130), None, None, C, false, Some("8c8d")),
            (2, v(50), None, None, C, false, Some("2g2f")),
            (399, v(5000), None, None, C, false, None),
            (400, v(100_000), None, None, C, false, None),
        ],
    );
}

#[test]
fn corpus_records_with_shogihome_and_shogigui_lines() {
    use Source::{Csa, ShogiGui, ShogiHome as H};
    let bridge = "shogihome/src/command/usi-csa-bridge/e2e/scenario";
    // The same three evaluations in ShogiHome's, Floodgate's and ShogiGUI's forms, in KIF
    // (UTF-8 and Shift-JIS) and CSA.
    for (file, source, depth, nodes) in [
        ("20/record.kifu", H, true, true),
        ("28/record.kif", H, true, true),
        ("27/record.csa", H, true, true),
        ("23/record.kifu", Csa, false, false),
        ("24/record.kifu", Csa, false, true),
        ("25/record.kifu", ShogiGui, true, true),
    ] {
        let d = |n| depth.then_some(n);
        let n = |n| nodes.then_some(n);
        pinned(
            &format!("{bridge}/{file}"),
            3,
            &[
                (2, v(-35), d(8), n(12_345), source, false, Some("2f2e")),
                (4, v(120), d(9), n(18_000), source, false, Some("6i7h")),
                (6, v(-8), d(10), n(30_000), source, false, Some("2e2d")),
            ],
        );
    }
    pinned(
        &format!("{bridge}/22/record.kifu"),
        3,
        &[
            (2, v(-64), Some(12), Some(20_000), H, false, Some("2f2e")),
            (
                4,
                mate(W, Some(7)),
                Some(20),
                Some(40_000),
                H,
                false,
                Some("6i7h"),
            ),
            (6, v(-12), Some(5), Some(900), H, false, None),
        ],
    );
    // A mate and a value on one move: the mate.
    pinned(
        &format!("{bridge}/1/record.kifu"),
        79,
        &[
            (12, v(8), Some(5), Some(885), H, false, Some("5g5f")),
            (
                164,
                mate(B, Some(6)),
                Some(2),
                Some(283),
                H,
                false,
                Some("3c3b"),
            ),
            (168, mate(B, Some(2)), Some(1), Some(2), H, false, None),
        ],
    );
    // The player's `**` and the analysis' `*#` on the same moves: the analysis is kept.
    for file in ["utf8.kif", "utf8.ki2", "sjis.kif", "sjis.ki2"] {
        pinned(
            &format!("shogihome/src/tests/testdata/encoding/{file}"),
            3,
            &[
                (2, v(-60), None, None, H, true, None),
                (3, mate(W, None), None, None, H, true, None),
                (4, mate(W, Some(8)), None, None, H, true, None),
            ],
        );
    }
    let book = "shogihome/src/tests/testdata/book/source-with-score";
    pinned(
        &format!("{book}/src01.kifu"),
        3,
        &[
            (5, v(-102), Some(21), None, H, true, Some("8d8e")),
            (7, v(-101), Some(22), None, H, true, Some("7a6b")),
        ],
    );
    pinned(
        &format!("{book}/src02.kifu"),
        2,
        &[(5, v(-72), Some(31), None, H, true, Some("1c1d"))],
    );
    pinned(
        &format!("{book}/src03.kifu"),
        2,
        &[
            (9, mate(B, None), None, None, H, true, None),
            (10, mate(W, None), None, None, H, true, None),
        ],
    );
    // ShogiGUI's own 対局 lines (a 2-ply engine's odd values, kept as written).
    for ext in ["kifu", "kif"] {
        pinned(
            &format!(
                "kif-parser-muzudho/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].{ext}"
            ),
            281,
            &[
                (1, v(0), Some(2), Some(960), ShogiGui, false, None),
                (3, v(1_000_001), Some(2), Some(554), ShogiGui, false, None),
                (6, v(-1_000_001), Some(2), Some(365), ShogiGui, false, None),
                (281, v(1_000_001), Some(2), Some(99), ShogiGui, false, None),
            ],
        );
    }
}

/// Every corpus record with engine lines or `#` evaluation comments is pinned above: a new
/// one in the corpus fails here until it is.
#[test]
fn every_corpus_record_with_evaluations_is_pinned() {
    let Some(root) = corpus_root() else {
        return;
    };
    let Some(files) = crate::util::corpus(&[]) else {
        return;
    };
    let mut with = Vec::new();
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let file = read_bytes(&bytes, Some(&f));
        if file.games.iter().any(|g| !evals::read(g).is_empty()) {
            with.push(
                f.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    with.sort();
    let bridge = "shogihome/src/command/usi-csa-bridge/e2e/scenario";
    let mut want: Vec<String> = [
        "kif-parser-muzudho/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kif",
        "kif-parser-muzudho/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kifu",
        "kif-parser-muzudho/docs/examples/csa/[floodgate]wdoor+floodgate-300-10F+Titanda_L+SILENT_MAJORITY_sf170225_6950XEE+20170302210003.csa",
        "kifu-for-js/packages/json-kifu-format/test/files/csa/dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa",
        "shogi-kifu-converter/data/tests/csa/WCSC32_F7_NBS_DLS.csa",
        "shogi-kifu-converter/data/tests/csa/floodgate.csa",
        "shogihome/src/tests/testdata/book/source-with-score/src01.kifu",
        "shogihome/src/tests/testdata/book/source-with-score/src02.kifu",
        "shogihome/src/tests/testdata/book/source-with-score/src03.kifu",
        "shogihome/src/tests/testdata/encoding/sjis.ki2",
        "shogihome/src/tests/testdata/encoding/sjis.kif",
        "shogihome/src/tests/testdata/encoding/utf8.ki2",
        "shogihome/src/tests/testdata/encoding/utf8.kif",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["1/record.kifu", "20/record.kifu", "22/record.kifu", "23/record.kifu", "24/record.kifu", "25/record.kifu", "27/record.csa", "28/record.kif"].iter().map(|s| format!("{bridge}/{s}")))
    .collect();
    want.sort();
    assert_eq!(with, want);
}
