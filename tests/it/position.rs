//! `kifudex position` and `kifudex tree` against a brute-force replay of every game: generated
//! games sharing opening lines (more than `VERIFY_ALL` of them reach the start), plus records
//! written for this test with transpositions, a repetition, handicaps, a mirrored opening and
//! the same board with different hands.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use kifudex::notation::kif::write_kif;
use kifudex::notation::read_bytes;
use kifudex::shogi::{Move, Position};
use kifudex::synth::{Synth, SynthOptions};
use serde_json::Value;

use crate::util::Rng;
use crate::util::{Kifudex, TempDb, import_and_list};

/// Records written for this test (USI lines and KIF), by file name.
const OWN: &[(&str, &str)] = &[
    // The same position after three moves, reached in two orders.
    ("trans-a.usi", "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\n"),
    ("trans-b.usi", "startpos moves 2g2f 3c3d 7g7f 8c8d 6i7h\n"),
    // Kings walk back and forth: the start is reached three times, then 7g7f is played.
    (
        "repeat.usi",
        "startpos moves 5i4h 5a4b 4h5i 4b5a 5i4h 5a4b 4h5i 4b5a 7g7f\n",
    ),
    // The mirror image of trans-a's first moves (from the mirrored start: rook and bishop
    // change places).
    (
        "mirror.usi",
        "sfen lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1 moves 3g3f 7c7d 8g8f\n",
    ),
    // One board, two different hands.
    (
        "hands-1.usi",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1 moves 5i5h\n",
    ),
    (
        "hands-2.usi",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P 1 moves 5i4h\n",
    ),
    // The board of hands-1 with white to move.
    (
        "hands-3.usi",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 w P 1 moves 5a5b\n",
    ),
    (
        "kyo.kif",
        "手合割：香落ち\n先手：下手\n後手：上手\n手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\n",
    ),
];

/// Every position of a game's main line, as SFEN without the move number.
fn positions(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    let mut out = vec![key(&pos)];
    for &mv in moves {
        pos.play(mv).expect("a stored move plays");
        out.push(key(&pos));
    }
    out
}

fn key(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(a, _)| a.to_string())
}

/// Board and side only.
fn board(k: &str) -> String {
    k.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

struct Game {
    id: i64,
    winner: Option<String>,
    moves: Vec<Move>,
    positions: Vec<String>,
}

fn build(dir: &Path) -> (std::path::PathBuf, Vec<Game>) {
    let files = dir.join("files");
    std::fs::create_dir_all(files.join("synth")).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed: 7,
        ..SynthOptions::default()
    });
    for i in 0..1050 {
        let text = write_kif(&synth.game());
        std::fs::write(files.join("synth").join(format!("g{i:04}.kifu")), text).unwrap();
    }
    for (name, text) in OWN {
        std::fs::write(files.join(name), text).unwrap();
    }
    let db = dir.join("db");
    let rows = import_and_list(&db, &files);
    let mut games = Vec::new();
    for r in rows {
        let path = r["file"].as_str().unwrap();
        let read = read_bytes(&std::fs::read(path).unwrap(), Some(Path::new(path)));
        let rec = &read.games[r["game_index"].as_u64().unwrap() as usize];
        let moves: Vec<Move> = rec.main.moves.iter().map(|m| m.mv).collect();
        games.push(Game {
            id: r["id"].as_i64().unwrap(),
            winner: r["winner"].as_str().map(str::to_string),
            positions: positions(&rec.start, &moves),
            moves,
        });
    }
    assert_eq!(games.len(), 1050 + OWN.len());
    (db, games)
}

#[derive(Clone, Copy, Default)]
struct Widen {
    ignore_hands: bool,
    either_side: bool,
    mirror: bool,
    flip: bool,
}

/// The variants of a position as (SFEN key, mirrored, flipped), computed without the index.
fn variants(pos: &Position, w: Widen) -> Vec<(String, bool, bool)> {
    let mut v = vec![(pos.clone(), false, false)];
    if w.mirror {
        v.push((pos.mirror(), true, false));
    }
    if w.flip {
        for i in 0..v.len() {
            let f = v[i].0.flip();
            v.push((f, v[i].1, true));
        }
    }
    if w.either_side {
        for i in 0..v.len() {
            let p = &v[i].0;
            v.push((
                p.with_side_to_move(p.side_to_move().opponent()),
                v[i].1,
                v[i].2,
            ));
        }
    }
    // A position that is its own mirror or flip is looked for once, as itself.
    let mut out: Vec<(String, bool, bool)> = Vec::new();
    for (p, m, f) in v {
        let k = key(&p);
        if !out.iter().any(|o| o.0 == k) {
            out.push((k, m, f));
        }
    }
    out
}

fn matches(a: &str, b: &str, ignore_hands: bool) -> bool {
    if ignore_hands {
        board(a) == board(b)
    } else {
        a == b
    }
}

/// (game id → first ply) and (move → (games, sente wins, gote wins, draws)) by brute force.
type Tree = BTreeMap<String, (u64, u64, u64, u64)>;

fn brute(games: &[Game], pos: &Position, w: Widen) -> (BTreeMap<i64, u64>, Tree) {
    let vars = variants(pos, w);
    let mut found = BTreeMap::new();
    let mut tree: Tree = BTreeMap::new();
    for g in games {
        let mut played = BTreeSet::new();
        for (ply, p) in g.positions.iter().enumerate() {
            for (v, mirrored, flipped) in &vars {
                if !matches(p, v, w.ignore_hands) {
                    continue;
                }
                found.entry(g.id).or_insert(ply as u64);
                if let Some(&mv) = g.moves.get(ply) {
                    let mv = if *flipped { mv.rotate() } else { mv };
                    let mv = if *mirrored { mv.mirror() } else { mv };
                    if played.insert(mv.usi()) {
                        let flip = *flipped;
                        let e = tree.entry(mv.usi()).or_default();
                        e.0 += 1;
                        match (g.winner.as_deref(), flip) {
                            (Some("sente"), false) | (Some("gote"), true) => e.1 += 1,
                            (Some("gote"), false) | (Some("sente"), true) => e.2 += 1,
                            (Some("draw"), _) => e.3 += 1,
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    (found, tree)
}

fn flags(w: Widen) -> Vec<&'static str> {
    let mut f = Vec::new();
    for (on, name) in [
        (w.ignore_hands, "--ignore-hands"),
        (w.either_side, "--either-side"),
        (w.mirror, "--mirror"),
        (w.flip, "--flip"),
    ] {
        if on {
            f.push(name);
        }
    }
    f
}

fn check(db: &Path, games: &[Game], pos: &Position, w: Widen) {
    let sfen = format!("sfen {}", pos.to_sfen());
    let (want, want_tree) = brute(games, pos, w);
    let mut args = vec!["position", sfen.as_str(), "--json", "--limit", "100000"];
    args.extend(flags(w));
    let out = Kifudex::new().db(db).args(&args).output();
    assert!(out.status.success(), "{}", out.stderr);
    let lines = out.json_lines();
    let (total, rows) = lines.split_last().unwrap();
    let got: BTreeMap<i64, u64> = rows
        .iter()
        .map(|r| (r["id"].as_i64().unwrap(), r["ply"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, want, "position {sfen} {:?}", flags(w));
    assert_eq!(
        total["total"].as_u64().unwrap(),
        want.len() as u64,
        "{sfen}"
    );
    // Newest first.
    let dates: Vec<&str> = rows
        .iter()
        .map(|r| r["date"].as_str().unwrap_or(""))
        .collect();
    assert!(dates.windows(2).all(|d| d[0] >= d[1]), "{sfen}: {dates:?}");

    args[0] = "tree";
    args.truncate(3);
    args.extend(flags(w));
    let out = Kifudex::new().db(db).args(&args).output();
    assert!(out.status.success(), "{}", out.stderr);
    let lines = out.json_lines();
    let (totals, rows) = lines.split_last().unwrap();
    assert_eq!(totals["total"].as_u64(), Some(want.len() as u64), "{sfen}");
    let got: Tree = rows
        .iter()
        .map(|r: &Value| {
            let n = |k: &str| r[k].as_u64().unwrap();
            (
                r["move"].as_str().unwrap().to_string(),
                (n("count"), n("sente_wins"), n("gote_wins"), n("draws")),
            )
        })
        .collect();
    assert_eq!(got, want_tree, "tree {sfen} {:?}", flags(w));
}

#[test]
fn position_and_tree_agree_with_replaying_every_game() {
    let dir = TempDb::new("position-brute");
    let (db, games) = build(&dir);
    let by_file: HashMap<usize, &Game> = games.iter().enumerate().collect();
    let mut queries: Vec<Position> = vec![
        Position::startpos(),
        crate::util::pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 w - 1"),
        crate::util::pos("4k4/9/9/9/9/9/9/9/4K4 b P 1"),
        kifudex::query::parse_position("startpos moves 7g7f 3c3d 2g2f").unwrap(),
        kifudex::query::parse_position("startpos moves 7g7f 3c3d").unwrap(),
    ];
    // Positions taken from the games themselves, at every stage of a game.
    let mut rng = Rng::new(99);
    for _ in 0..25 {
        let g = by_file[&rng.below(games.len())];
        let ply = rng.below(g.moves.len() + 1);
        let mut pos = Position::from_sfen(&format!("{} 1", g.positions[0])).unwrap();
        for &mv in &g.moves[..ply] {
            pos.play(mv).unwrap();
        }
        queries.push(pos);
    }
    for (i, q) in queries.iter().enumerate() {
        check(&db, &games, q, Widen::default());
        if i < 8 {
            for w in [
                Widen {
                    ignore_hands: true,
                    ..Widen::default()
                },
                Widen {
                    either_side: true,
                    ..Widen::default()
                },
                Widen {
                    mirror: true,
                    ..Widen::default()
                },
                Widen {
                    flip: true,
                    mirror: true,
                    ..Widen::default()
                },
                Widen {
                    ignore_hands: true,
                    either_side: true,
                    mirror: true,
                    flip: true,
                },
            ] {
                check(&db, &games, q, w);
            }
        }
    }
}

/// The explorer's one call for a tree and its games list answers exactly what the two
/// separate queries do: when every game is replayed (the list comes from the tree's replays)
/// and when the position is in more than `VERIFY_ALL` games (the list from the newest entries
/// the tree read), with and without a filter, for short and long lists, widened or not.
#[test]
fn tree_and_games_together_equal_tree_and_position_apart() {
    use kifudex::query::{
        GameFilter, PositionOptions, PositionQuery, find_games, tree_and_games, tree_with,
    };
    let dir = TempDb::new("tree-and-games");
    let (db, games) = build(&dir);
    let store = kifudex::store::Store::open_read_only(&db).unwrap();
    let mut queries: Vec<Position> = vec![
        Position::startpos(),
        kifudex::query::parse_position("startpos moves 7g7f").unwrap(),
        kifudex::query::parse_position("startpos moves 7g7f 3c3d 2g2f").unwrap(),
    ];
    let mut rng = Rng::new(5);
    for _ in 0..12 {
        let g = &games[rng.below(games.len())];
        let ply = rng.below(g.moves.len().min(12) + 1);
        let mut pos = Position::from_sfen(&format!("{} 1", g.positions[0])).unwrap();
        for &mv in &g.moves[..ply] {
            pos.play(mv).unwrap();
        }
        queries.push(pos);
    }
    let filters = [
        GameFilter::default(),
        GameFilter {
            winner: Some(kifudex::query::WinnerArg::Sente),
            ..GameFilter::default()
        },
        GameFilter {
            min_plies: Some(60),
            ..GameFilter::default()
        },
    ];
    let widen = [
        PositionOptions::default(),
        PositionOptions {
            mirror: true,
            either_side: true,
            ..PositionOptions::default()
        },
    ];
    let mut many = 0;
    for pos in &queries {
        for o in widen {
            for f in &filters {
                for (limit, reached) in [(1, false), (20, false), (2000, false), (20, true)] {
                    let (t, g) = tree_and_games(&store, pos, o, f, reached, limit).unwrap();
                    let want_t = tree_with(&store, pos, o, f, reached).unwrap();
                    let q = PositionQuery {
                        options: o,
                        filter: f.clone(),
                        limit,
                        ..PositionQuery::default()
                    };
                    let want_g = find_games(&store, pos, &q).unwrap();
                    let at = format!("{} {f:?} limit {limit} {reached}", pos.to_sfen());
                    assert_eq!(t.rows, want_t.rows, "{at}");
                    assert_eq!((t.games, t.exact), (want_t.games, want_t.exact), "{at}");
                    assert_eq!(g.rows, want_g.rows, "{at}");
                    assert_eq!((g.total, g.exact), (want_g.total, want_g.exact), "{at}");
                    many += usize::from(!g.exact);
                }
            }
        }
    }
    // Both ways were taken.
    assert!(many > 0, "no position was in more than VERIFY_ALL games");
}

/// A position in few games whose move leads to a position in many (a transposition): every
/// game of the position is replayed while the tree, counting the games after each move, is
/// not exact. The games list must still come from those replays.
#[test]
fn tree_and_games_when_a_move_leads_to_a_position_in_many_games() {
    use kifudex::query::{
        GameFilter, PositionOptions, PositionQuery, find_games, tree_and_games, tree_with,
    };
    use std::collections::HashSet;
    let dir = TempDb::new("tree-and-games-transposed");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    // Distinct games (the same game twice is stored once): 1,010 by one order of the first
    // three moves, 6 by the other, each with its own random continuation.
    let mut rng = Rng::new(11);
    let mut seen = HashSet::new();
    let mut text = String::new();
    for (prefix, wanted) in [("7g7f 3c3d 2g2f", 1010), ("2g2f 3c3d 7g7f", 6)] {
        let mut made = 0;
        while made < wanted {
            let mut pos =
                kifudex::query::parse_position(&format!("startpos moves {prefix}")).unwrap();
            let mut line = prefix.to_string();
            for _ in 0..6 {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                pos.play(mv).unwrap();
                line.push(' ');
                line.push_str(&mv.usi());
            }
            if seen.insert(line.clone()) {
                text.push_str(&format!("startpos moves {line}\n"));
                made += 1;
            }
        }
    }
    std::fs::write(files.join("games.usi"), text).unwrap();
    let db = dir.join("db");
    assert_eq!(import_and_list(&db, &files).len(), 1016);
    let store = kifudex::store::Store::open_read_only(&db).unwrap();
    let pos = kifudex::query::parse_position("startpos moves 2g2f 3c3d").unwrap();
    let (o, f) = (PositionOptions::default(), GameFilter::default());
    let (t, g) = tree_and_games(&store, &pos, o, &f, true, 20).unwrap();
    // The move 7g7f leads to the position of all 1,016 games: the tree is not exact.
    assert!(!t.exact);
    let after = t
        .rows
        .iter()
        .find(|r| r.mv == "7g7f")
        .expect("7g7f was played");
    assert_eq!(after.reached, Some(1016));
    let want = find_games(
        &store,
        &pos,
        &PositionQuery {
            limit: 20,
            ..PositionQuery::default()
        },
    )
    .unwrap();
    assert_eq!((g.total, g.exact), (6, true));
    assert_eq!(g.rows, want.rows);
    assert_eq!(g.rows.len(), 6);
    assert_eq!(t.rows, tree_with(&store, &pos, o, &f, true).unwrap().rows);
}

#[test]
fn exact_answers_for_the_records_written_by_hand() {
    let dir = TempDb::new("position-own");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    for (name, text) in OWN {
        std::fs::write(files.join(name), text).unwrap();
    }
    let db = dir.join("db");
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    let id = |file: &str| -> i64 {
        let rows = Kifudex::new()
            .db(&db)
            .args(&["search", "--json"])
            .output()
            .json_lines();
        rows.iter()
            .find(|r| r["file"].as_str().unwrap().ends_with(file))
            .unwrap()["id"]
            .as_i64()
            .unwrap()
    };
    let found = |args: &[&str]| -> Vec<(i64, u64)> {
        let mut a = vec!["position"];
        a.extend(args);
        a.push("--json");
        let lines = Kifudex::new().db(&db).args(&a).output().json_lines();
        let mut v: Vec<(i64, u64)> = lines[..lines.len() - 1]
            .iter()
            .map(|r| (r["id"].as_i64().unwrap(), r["ply"].as_u64().unwrap()))
            .collect();
        v.sort();
        v
    };
    // A transposition: both move orders reach it at ply 3.
    let mut want = vec![(id("trans-a.usi"), 3), (id("trans-b.usi"), 3)];
    want.sort();
    assert_eq!(found(&["startpos moves 2g2f 3c3d 7g7f"]), want);
    // Mirrored: mirror.usi reaches the mirror image at ply 2; trans-b never has black to move
    // there.
    let mut want = vec![(id("trans-a.usi"), 2), (id("mirror.usi"), 2)];
    want.sort();
    assert_eq!(
        found(&["position startpos moves 7g7f 3c3d", "--mirror"]),
        want
    );
    // Hands: one board, three games; hands and side to move tell them apart.
    let lone = "sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1";
    assert_eq!(found(&[lone]), vec![(id("hands-1.usi"), 0)]);
    let mut both = vec![(id("hands-1.usi"), 0), (id("hands-2.usi"), 0)];
    both.sort();
    assert_eq!(found(&[lone, "--ignore-hands"]), both);
    let mut sides = vec![(id("hands-1.usi"), 0), (id("hands-3.usi"), 0)];
    sides.sort();
    assert_eq!(found(&[lone, "--either-side"]), sides);
    // The handicap game's start, given as the board a 香落ち game begins with.
    assert_eq!(
        found(&["lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"]),
        vec![(id("kyo.kif"), 0)]
    );
    // The repetition: the start three times, then 7g7f; the tree counts the game once per move.
    let tree = Kifudex::new()
        .db(&db)
        .args(&["tree", "startpos", "--json"])
        .output()
        .json_lines();
    assert_eq!(tree.last().unwrap()["total"].as_u64(), Some(3));
    let moves: BTreeMap<String, u64> = tree[..tree.len() - 1]
        .iter()
        .map(|r| {
            (
                r["move"].as_str().unwrap().to_string(),
                r["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        BTreeMap::from([
            ("2g2f".to_string(), 1),
            ("5i4h".to_string(), 1),
            ("7g7f".to_string(), 2)
        ])
    );
    let text = Kifudex::new()
        .db(&db)
        .args(&["tree", "startpos"])
        .output()
        .stdout;
    assert!(text.contains("☗７六歩"), "{text}");
    assert!(
        text.ends_with(
            "3 moves from a position reached in 3 games; score for sente, the side to move\n"
        ),
        "{text}"
    );
}

#[test]
fn a_bad_position_is_a_clear_error() {
    let dir = TempDb::new("position-bad");
    let db = dir.join("db");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a.usi"), "startpos moves 7g7f\n").unwrap();
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    for (pos, says) in [
        (
            "lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "rank 3 has 10 squares",
        ),
        ("startpos moves 7g7f 7g7f", "7g7f"),
        ("startpos moves 7x7f", "7x7f"),
    ] {
        let out = Kifudex::new().db(&db).args(&["position", pos]).output();
        assert_eq!(out.status.code(), Some(2), "{pos}");
        let err = out.stderr.clone();
        assert!(err.contains("cannot read the position"), "{pos}: {err}");
        assert!(err.contains(says), "{pos}: {err}");
    }
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "--file", "/nonexistent/x.kif"])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.contains("cannot read /nonexistent/x.kif"));
    std::fs::write(files.join("b.usi"), "startpos moves 7g7f 3c3d\n").unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "position",
            "--file",
            files.join("b.usi").to_str().unwrap(),
            "--ply",
            "5",
        ])
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr
            .contains("has 2 moves in its main line: there is no ply 5"),
        "{}",
        out.stderr
    );
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "position",
            "--file",
            files.join("b.usi").to_str().unwrap(),
            "--ply",
            "1",
            "--json",
        ])
        .output();
    let mut want = Kifudex::new()
        .db(&db)
        .args(&["search", "--json"])
        .output()
        .json_lines()[0]
        .clone();
    want["ply"] = serde_json::json!(1);
    assert_eq!(
        out.json_lines(),
        vec![want, serde_json::json!({"total": 1})]
    );
}

#[test]
fn segments_merge_and_removed_games_disappear() {
    let dir = TempDb::new("position-merge");
    let db = dir.join("db");
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(a.join("1.usi"), "startpos moves 7g7f 3c3d\n").unwrap();
    std::fs::write(a.join("2.usi"), "startpos moves 7g7f 8c8d\n").unwrap();
    std::fs::write(b.join("3.usi"), "startpos moves 2g2f 8c8d\n").unwrap();
    let stats = |db: &Path| {
        Kifudex::new()
            .db(db)
            .args(&["stats", "--json"])
            .output()
            .json_lines()[0]
            .clone()
    };
    let total = |pos: &str| -> u64 {
        let lines = Kifudex::new()
            .db(&db)
            .args(&["position", pos, "--json"])
            .output()
            .json_lines();
        lines.last().unwrap()["total"].as_u64().unwrap()
    };
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", a.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", b.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    // Each import writes a segment; the small ones are merged at the end of the next.
    let s = stats(&db);
    assert_eq!(s["position_segments"], 1);
    assert_eq!(s["positions"], 3 * 3);
    assert_eq!(total("startpos"), 3);
    assert_eq!(total("startpos moves 7g7f"), 2);
    // 2.usi changes: its old game is removed, the new one indexed.
    std::fs::write(a.join("2.usi"), "startpos moves 5g5f 8c8d 5f5e\n").unwrap();
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", a.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    assert_eq!(total("startpos moves 7g7f"), 1);
    assert_eq!(total("startpos moves 5g5f 8c8d"), 1);
    assert_eq!(total("startpos"), 3);
    // The merge at the end of that import dropped the removed game's postings.
    assert_eq!(stats(&db)["positions"], 3 + 3 + 4);
    let out = Kifudex::new().db(&db).args(&["optimize"]).output();
    assert!(out.status.success(), "{}", out.stderr);
    assert!(
        out.stdout
            .starts_with("position index: already merged, 10 postings"),
        "{}",
        out.stdout
    );
    let s = stats(&db);
    assert_eq!(s["position_segments"], 1);
    assert_eq!(s["positions"], 3 + 3 + 4);
    assert_eq!(total("startpos moves 7g7f"), 1);
    assert_eq!(total("startpos"), 3);
    let tree = Kifudex::new()
        .db(&db)
        .args(&["tree", "startpos", "--json"])
        .output()
        .json_lines();
    let moves: Vec<(&str, u64)> = tree[..tree.len() - 1]
        .iter()
        .map(|r| (r["move"].as_str().unwrap(), r["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, vec![("2g2f", 1), ("5g5f", 1), ("7g7f", 1)]);
}

#[test]
fn variations_are_indexed_when_asked() {
    let dir = TempDb::new("position-variations");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("v.kifu"),
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n\n変化：2手\n   2 ８四歩(83)\n   3 ６八銀(79)\n",
    )
    .unwrap();
    let total = |db: &Path, pos: &str| -> (u64, Vec<u64>) {
        let lines = Kifudex::new()
            .db(db)
            .args(&["position", pos, "--json"])
            .output()
            .json_lines();
        let (t, rows) = lines.split_last().unwrap();
        (
            t["total"].as_u64().unwrap(),
            rows.iter().map(|r| r["ply"].as_u64().unwrap()).collect(),
        )
    };
    let plain = dir.join("plain");
    let with = dir.join("with");
    assert!(
        Kifudex::new()
            .db(&plain)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    let out = Kifudex::new()
        .db(&with)
        .args(&["import", "--variations", files.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let in_variation = "startpos moves 7g7f 8c8d 7i6h";
    assert_eq!(total(&plain, in_variation), (0, vec![]));
    assert_eq!(total(&with, in_variation), (1, vec![3]));
    // The main line is still found at its own ply.
    assert_eq!(total(&with, "startpos moves 7g7f 3c3d"), (1, vec![2]));
    // From the branch point, the tree has the main move and the variation's.
    let tree = |db: &Path| -> Vec<String> {
        Kifudex::new()
            .db(db)
            .args(&["tree", "startpos moves 7g7f", "--json"])
            .output()
            .json_lines()
            .iter()
            .filter(|r| r.get("move").is_some())
            .map(|r| r["move"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(tree(&plain), vec!["3c3d"]);
    assert_eq!(tree(&with), vec!["3c3d", "8c8d"]);
    assert_eq!(
        Kifudex::new()
            .db(&with)
            .args(&["stats", "--json"])
            .output()
            .json_lines()[0]["positions"],
        4 + 3
    );
    // Positions a stopped import never wrote are replayed from the stored record, its
    // variations included (the tree is kept deflated in the games row).
    let c = rusqlite::Connection::open(with.join("kifudex.sqlite")).unwrap();
    c.execute_batch("DELETE FROM position_blocks; DELETE FROM position_segments;")
        .unwrap();
    drop(c);
    let out = Kifudex::new()
        .db(&with)
        .args(&["upgrade", "--json"])
        .output();
    assert_eq!(out.json_lines()[0]["indexed"], 1, "{}", out.stderr);
    assert_eq!(total(&with, in_variation), (1, vec![3]));
    assert_eq!(tree(&with), vec!["3c3d", "8c8d"]);
    assert_eq!(
        Kifudex::new()
            .db(&with)
            .args(&["stats", "--json"])
            .output()
            .json_lines()[0]["positions"],
        4 + 3
    );
}
