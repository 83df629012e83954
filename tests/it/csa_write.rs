//! The CSA writer: exact output, round trips CSA → CSA and KIF → CSA → KIF (on our fixtures
//! and over the shared corpus), and `kifudex convert --to csa`.

use kifudex::notation::csa::{CsaVersion, read_csa, write_csa, write_csa_games};
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::{Format, Line, Record, read_bytes};

use crate::util::{CSA_GAME, Kifudex, TempDb, corpus, csa_clean, usi_moves};

/// Writes `rec` in `version` and reads it back: the same record, errors aside.
fn round_trip(rec: &Record, version: CsaVersion) -> Record {
    let text = write_csa(rec, version);
    let mut games = read_csa(&text);
    assert_eq!(games.len(), 1, "{text}");
    let again = games.remove(0);
    assert_eq!(again.errors, [], "{text}");
    again
}

fn same_record(a: &Record, b: &Record) {
    assert_eq!(a.headers, b.headers);
    assert_eq!(a.start, b.start);
    assert_eq!(a.start_comments, b.start_comments);
    assert_eq!(a.start_engine, b.start_engine);
    assert_eq!(a.main, b.main);
    assert_eq!(a.notes, b.notes);
}

#[test]
fn a_v22_record_is_written_as_it_was_read() {
    let r = csa_clean(CSA_GAME);
    assert_eq!(write_csa(&r, CsaVersion::V2_2), CSA_GAME);
    assert_eq!(
        write_csa(&r, CsaVersion::V2_2),
        write_csa(&r, CsaVersion::default())
    );
    assert_eq!(
        write_csa(&r, CsaVersion::V3_0),
        CSA_GAME.replacen("V2.2", "V3.0", 1)
    );
}

#[test]
fn start_positions_comments_engine_lines_and_notes_are_written() {
    let text = "\
V2.2
' banner
P-11OU
P+13FU
P+00KI
P-00AL
+
'*the problem
'**mate in 1
+0012KI
T3
'*the answer
'**mate
' remark
%TSUMI
'summary:tsumi:a win:b lose
";
    let r = csa_clean(text);
    let written = write_csa(&r, CsaVersion::V2_2);
    assert_eq!(
        written,
        "\
V2.2
P1 *  *  *  *  *  *  *  * -OU
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  *  *  * +FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  *  *  *  *  *  * 
P+00KI
P-00HI00HI00KA00KA00KI00KI00KI00GI00GI00GI00GI00KE00KE00KE00KE00KY00KY00KY00KY\
00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU
+
' banner
'*the problem
'**mate in 1
+0012KI
T3
'*the answer
'**mate
' remark
%TSUMI
'summary:tsumi:a win:b lose
"
    );
    same_record(&round_trip(&r, CsaVersion::V2_2), &r);
}

#[test]
fn handicaps_are_written_with_pi() {
    let r = csa_clean("N+下手\nN-上手\nPI82HI22KA\n-\n-5142OU\n+7776FU\n%TORYO\n");
    assert_eq!(
        write_csa(&r, CsaVersion::V2_2),
        "V2.2\nN+下手\nN-上手\nPI82HI22KA\n-\n-5142OU\n+7776FU\n%TORYO\n"
    );
    // The even board with Gote to move is still PI.
    let r = csa_clean("PI\n-\n-3334FU\n");
    assert_eq!(write_csa(&r, CsaVersion::V2_2), "V2.2\nPI\n-\n-3334FU\n");
}

#[test]
fn fractional_times_survive_v30_and_are_cut_in_v22() {
    let r = csa_clean("V3.0\nPI\n+\n+7776FU\nT6.123\n-3334FU\nT0.5\n+8822UM\nT12\n%TORYO\nT1.25\n");
    let v3 = write_csa(&r, CsaVersion::V3_0);
    assert_eq!(
        v3,
        "V3.0\nPI\n+\n+7776FU\nT6.123\n-3334FU\nT0.5\n+8822UM\nT12\n%TORYO\nT1.25\n"
    );
    same_record(&round_trip(&r, CsaVersion::V3_0), &r);
    let v2 = write_csa(&r, CsaVersion::V2_2);
    assert_eq!(
        v2,
        "V2.2\nPI\n+\n+7776FU\nT6\n-3334FU\nT0\n+8822UM\nT12\n%TORYO\nT1\n"
    );
    let again = round_trip(&r, CsaVersion::V2_2);
    let spent: Vec<f64> = again
        .main
        .moves
        .iter()
        .map(|m| m.time.unwrap().spent)
        .collect();
    assert_eq!(spent, [6.0, 0.0, 12.0]);
    assert_eq!(usi_moves(&again), usi_moves(&r));
}

#[test]
fn every_terminal_round_trips() {
    let words = [
        "%TORYO",
        "%CHUDAN",
        "%SENNICHITE",
        "%TIME_UP",
        "%ILLEGAL_MOVE",
        "%+ILLEGAL_ACTION",
        "%-ILLEGAL_ACTION",
        "%JISHOGI",
        "%KACHI",
        "%HIKIWAKE",
        "%MATTA",
        "%TSUMI",
        "%FUZUMI",
        "%ERROR",
        "%MAX_MOVES",
    ];
    for moves in ["+7776FU\n-3334FU\n", "+7776FU\n-3334FU\n+2726FU\n"] {
        for word in words {
            let r = csa_clean(&format!("PI\n+\n{moves}{word}\n"));
            let again = round_trip(&r, CsaVersion::V2_2);
            assert_eq!(again.terminal(), r.terminal(), "{word}");
            assert_eq!(again.result(), r.result(), "{word}");
        }
    }
    // A wrong %KACHI is read as the record says it (flagged) and written as it was.
    let r = csa_clean("PI\n+\n+7776FU\n-3334FU\n%KACHI\n");
    assert!(write_csa(&r, CsaVersion::V2_2).ends_with("-3334FU\n%KACHI\n"));
}

#[test]
fn several_games_are_written_with_separators() {
    let text = "V2.2\nN+A\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI82HI\n-\n-3334FU\n/\nV2.2\nP-11OU\nP+13FU\nP+00KI\n+\n+0012KI\n%TSUMI\n";
    let games = read_csa(text);
    assert_eq!(games.len(), 3);
    let written = write_csa_games(&games, CsaVersion::V2_2);
    assert_eq!(written.matches("\n/\n").count(), 2);
    let again = read_csa(&written);
    assert_eq!(again.len(), 3);
    for (a, b) in games.iter().zip(&again) {
        same_record(a, b);
    }
}

const KIF: &str = "\
開始日時：2024/03/01(金) 10:00:00
棋戦：テスト棋戦
戦型：相掛かり
手合割：平手
先手：先手太郎
後手：後手花子
備考：KIF の備考
手数----指手---------消費時間--
*開始前のコメント
   1 ２六歩(27)   ( 0:05/00:00:05)
*初手のコメント
**評価値 30 読み筋 △８四歩
   2 ８四歩(83)   ( 0:10/00:00:10)
   3 ２五歩(26)   ( 1:02/00:01:07)
   4 ８五歩(84)   ( 0:03/00:00:13)
   5 投了         ( 0:01/00:01:08)
";

#[test]
fn kif_to_csa_to_kif() {
    let kif = read_kif(KIF);
    assert_eq!(kif.errors, []);
    assert_eq!(kif.main.moves[0].engine, ["評価値 30 読み筋 △８四歩"]);
    assert_eq!(kif.main.moves[0].comments, ["初手のコメント"]);
    let csa = write_csa(&kif, CsaVersion::V2_2);
    assert_eq!(
        csa,
        "\
V2.2
$START_TIME:2024/03/01(金) 10:00:00
$EVENT:テスト棋戦
$OPENING:相掛かり
N+先手太郎
N-後手花子
$備考:KIF の備考
PI
+
'*開始前のコメント
+2726FU
T5
'*初手のコメント
'**評価値 30 読み筋 △８四歩
-8384FU
T10
+2625FU
T62
-8485FU
T3
%TORYO
T1
"
    );
    let back = read_kif(&write_kif(&csa_clean(&csa)));
    assert_eq!(back.errors, []);
    // 手合割 is the start position in CSA (PI); every other header comes back.
    let mut headers = kif.headers.clone();
    headers.retain(|(k, _)| k != "手合割");
    assert_eq!(back.headers, headers);
    assert_eq!(back.start, kif.start);
    assert_eq!(back.start_comments, kif.start_comments);
    assert_eq!(back.main, kif.main);
}

/// Every CSA record of the shared corpus (when it is beside the project, as in CI) reads back
/// the same after writing it as CSA V3.0, and as V2.2 when it has no fractional times; every
/// KIF/KIFU record without variations or bookmarks survives KIF → CSA → KIF.
#[test]
fn csa_and_kif_round_trips_over_the_shared_corpus() {
    let Some(files) = corpus(&[]) else {
        return;
    };
    let (mut csa_checked, mut kif_checked) = (0, 0);
    let mut failures = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let read = read_bytes(&bytes, Some(&path));
        match read.format {
            Some(Format::Csa) => {
                for game in &read.games {
                    let fractions = game
                        .main
                        .moves
                        .iter()
                        .filter_map(|m| m.time)
                        .any(|t| t.spent.fract() != 0.0);
                    for version in [CsaVersion::V3_0, CsaVersion::V2_2] {
                        if fractions && version == CsaVersion::V2_2 {
                            continue;
                        }
                        let again = read_csa(&write_csa(game, version));
                        let ok = again.len() == 1
                            && again[0].errors.is_empty()
                            && again[0].headers == game.headers
                            && again[0].start == game.start
                            && again[0].start_comments == game.start_comments
                            && again[0].start_engine == game.start_engine
                            && again[0].main == game.main
                            && again[0].notes == game.notes;
                        if !ok {
                            failures.push(format!("{} ({version:?})", path.display()));
                        }
                    }
                }
                csa_checked += 1;
            }
            Some(Format::Kif) => {
                let Some(mut original) = read.games.first().cloned() else {
                    continue;
                };
                if original.main.variation_count() > 0 || has_bookmarks(&original) {
                    continue;
                }
                original.errors.clear();
                original.incomplete = false;
                let csa = read_csa(&write_csa(&original, CsaVersion::V3_0));
                let mut back = read_kif(&write_kif(&csa[0]));
                // 手合割 is the start position in CSA; the KIF writer names a handicap again.
                let mut headers = original.headers.clone();
                headers.retain(|(k, _)| k != "手合割");
                back.headers.retain(|(k, _)| k != "手合割");
                let ok = csa[0].errors.is_empty()
                    && back.errors.is_empty()
                    && back.start == original.start
                    && back.start_comments == original.start_comments
                    && back.start_engine == original.start_engine
                    && same_kif_main(&back.main, &original.main)
                    && same_names(&back.headers, &headers);
                if ok {
                    kif_checked += 1;
                } else {
                    failures.push(path.display().to_string());
                }
            }
            _ => {}
        }
    }
    assert_eq!(failures, Vec::<String>::new());
    assert!(csa_checked >= 100, "only {csa_checked} CSA files checked");
    assert!(kif_checked >= 50, "only {kif_checked} KIF files checked");
}

/// The same moves, comments, engine lines, times spent and terminal. CSA gives no running
/// totals: they are each side's sum of the times, which a KIF file need not agree with.
fn same_kif_main(a: &Line, b: &Line) -> bool {
    let spent = |l: &Line| -> Vec<Option<f64>> {
        l.moves.iter().map(|m| m.time.map(|t| t.spent)).collect()
    };
    let strip = |l: &Line| -> Line {
        let mut l = l.clone();
        for m in &mut l.moves {
            m.time = None;
        }
        if let Some(t) = &mut l.terminal {
            t.time = t.time.map(|mut t| {
                t.total = None;
                t
            });
        }
        l
    };
    spent(a) == spent(b) && strip(a) == strip(b)
}

/// KIF headers after the trip through CSA: the player keys may come back as 下手/上手 for
/// 先手/後手 in a handicap game, and the other way round.
fn same_names(a: &[(String, String)], b: &[(String, String)]) -> bool {
    let norm = |h: &[(String, String)]| -> Vec<(String, String)> {
        h.iter()
            .map(|(k, v)| {
                let k = match k.as_str() {
                    "下手" => "先手",
                    "上手" => "後手",
                    k => k,
                };
                (k.to_string(), v.clone())
            })
            .collect()
    };
    norm(a) == norm(b)
}

fn has_bookmarks(r: &Record) -> bool {
    !r.start_bookmarks.is_empty() || r.main.moves.iter().any(|m| !m.bookmarks.is_empty())
}

/// A file in a fresh temporary directory, for the command-line tests.
/// A file holding `contents` in a scratch folder of its own (removed with the guard).
fn temp_file(name: &str, contents: &str) -> (TempDb, std::path::PathBuf) {
    let dir = TempDb::new(&format!("csa-{name}"));
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

#[test]
fn convert_kif_to_csa_says_what_csa_drops() {
    let kif = "\
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
&見どころ
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 投了

変化：2手
   2 ８四歩(83)
";
    let (_dir, path) = temp_file("game.kifu", kif);
    let (code, out, err) = Kifudex::new()
        .args(&["convert", path.to_str().unwrap(), "--to", "csa"])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n%TORYO\n"
    );
    assert_eq!(
        err,
        "kifudex: CSA has no variations: 1 are not written\nkifudex: CSA has no bookmarks: 1 are not written\n"
    );
}

#[test]
fn convert_a_file_of_several_games_to_csa_v30() {
    let text = "V2.2\nPI\n+\n+7776FU\nT1.5\n%TORYO\n/\nPI82HI\n-\n-3334FU\n/\nPI\n+\n";
    let (_dir, path) = temp_file("three.csa", text);
    let (code, out, err) = Kifudex::new()
        .args(&[
            "convert",
            path.to_str().unwrap(),
            "--to",
            "csa",
            "--csa-version",
            "3.0",
        ])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert_eq!(
        out,
        "V3.0\nPI\n+\n+7776FU\nT1.5\n%TORYO\n/\nV3.0\nPI82HI\n-\n-3334FU\n/\nV3.0\nPI\n+\n"
    );
    let (code, out, err) = Kifudex::new()
        .args(&["convert", path.to_str().unwrap(), "--to", "csa"])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("V2.2\nPI\n+\n+7776FU\nT1\n%TORYO\n/\n"),
        "{out}"
    );
    assert_eq!(
        err,
        "kifudex: CSA V2.2 times are whole seconds: fractions are cut off (--csa-version 3.0 keeps them)\n"
    );
    let (code, _, err) = Kifudex::new()
        .args(&[
            "convert",
            path.to_str().unwrap(),
            "--to",
            "csa",
            "--csa-version",
            "2.1",
        ])
        .output()
        .parts();
    assert_eq!(code, 2);
    assert!(
        err.contains("'2.1' is no CSA version kifudex writes: 2.2 or 3.0"),
        "{err}"
    );
    // KIF holds one game, and no remarks.
    let (code, out, err) = Kifudex::new()
        .args(&["convert", path.to_str().unwrap(), "--to", "kifu"])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("   1 ７六歩(77)"), "{out}");
    assert!(
        err.contains("holds 3 games; a KIF file holds one, so only the first is written"),
        "{err}"
    );
}

#[test]
fn convert_csa_to_kif_keeps_engine_lines_and_drops_notes() {
    let text = "V2\nN+alice\nN-bob\n$EVENT:floodgate\nPI\n+\n+7776FU\nT3\n'** 30 -3334FU\n-3334FU\n%TORYO\n'summary:toryo:alice win:bob lose\n";
    let (_dir, path) = temp_file("floodgate.csa", text);
    let (code, out, err) = Kifudex::new()
        .args(&["convert", path.to_str().unwrap(), "--to", "kifu"])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        "kifudex: KIF has no place for the file's remarks (CSA ' lines): 1 are not written\n"
    );
    assert!(
        out.starts_with("先手：alice\n後手：bob\n棋戦：floodgate\n"),
        "{out}"
    );
    assert!(
        out.contains("   1 ７六歩(77)    ( 0:03/00:00:03)\n** 30 -3334FU\n"),
        "{out}"
    );
}

#[test]
fn parse_prints_each_game_of_a_csa_file() {
    let text =
        "V2.2\nN+A\n$EVENT:E\nPI\n+\n+7776FU\n'** 10\n%TORYO\n/\nPI82HI\n-\n-3334FU\n%CHUDAN\n";
    let (_dir, path) = temp_file("parse.csa", text);
    let (code, out, err) = Kifudex::new()
        .args(&["parse", path.to_str().unwrap()])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    let games: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["game_index"], 0);
    assert_eq!(games[0]["format"], "csa");
    assert_eq!(
        games[0]["headers"],
        serde_json::json!({"N+": "A", "$EVENT": "E"})
    );
    assert_eq!(games[0]["sente"], "A");
    assert_eq!(games[0]["event"], "E");
    assert_eq!(games[0]["moves"], serde_json::json!(["7g7f"]));
    assert_eq!(games[0]["terminal"], "resign");
    assert_eq!(games[0]["winner"], "sente");
    assert_eq!(games[0]["engine_lines"], 1);
    assert_eq!(games[1]["game_index"], 1);
    assert_eq!(games[1]["handicap"], "飛車落ち");
    assert_eq!(games[1]["moves"], serde_json::json!(["3c3d"]));
    assert_eq!(games[1]["terminal"], "abort");
    assert_eq!(games[1]["winner"], serde_json::Value::Null);
}
