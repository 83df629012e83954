//! The game filter on every command that selects games (`search`, `position`, `tree`,
//! `text`, `stats`) against a brute-force answer: every game's headers from an unfiltered
//! search, its positions replayed from its file, and the filter's rules applied here by hand.
//! More than `VERIFY_ALL` games reach the start, so the tree's and position's index paths are
//! checked with a filter too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::util::{Kifudex, TempDb, import_and_list};
use kifudex::normalize::{fold, name_matches};
use kifudex::notation::kif::write_kif;
use kifudex::notation::read_bytes;
use kifudex::shogi::{Move, Position};
use kifudex::synth::{Synth, SynthOptions};
use serde_json::Value;

/// Records of this test's own: a handicap game, a draw by repetition, a game in another
/// folder (for --source), names with titles.
const OWN: &[(&str, &str)] = &[
    (
        "pro/kyo.kif",
        "開始日時：2021/03/04\n棋戦：竜王戦\n手合割：香落ち\n下手：藤井聡太 竜王\n上手：羽生善治 九段\n手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ４四歩(43)\n   4 投了\n",
    ),
    (
        "pro/sennichite.kif",
        "開始日時：2020/11/30\n棋戦：名人戦\n戦型：相掛かり\n先手：羽生善治 九段\n後手：藤井聡太 竜王\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 千日手\n",
    ),
    (
        "pro/fujii.kif",
        "開始日時：2019/07\n棋戦：王位戦\n戦型：角換わり\n先手：藤井聡太 七段\n後手：佐藤一郎\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ８四歩(83)\n   3 投了\n",
    ),
];

struct Game {
    id: i64,
    file: String,
    date: Option<String>,
    sente: String,
    gote: String,
    event: String,
    opening: String,
    /// The recognised label.
    recognised: String,
    plies: u64,
    winner: Option<String>,
    handicap: String,
    terminal: Option<String>,
    moves: Vec<Move>,
    /// SFEN without the move number, before the first move and after each.
    positions: Vec<String>,
}

fn key(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(a, _)| a.to_string())
}

fn build(dir: &Path) -> (PathBuf, Vec<Game>) {
    let files = dir.join("files");
    std::fs::create_dir_all(files.join("synth")).unwrap();
    std::fs::create_dir_all(files.join("pro")).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed: 23,
        players: 8,
        comment_rate: 0.04,
        variation_rate: 0.0,
        times: false,
    });
    for i in 0..1030 {
        let text = write_kif(&synth.game());
        std::fs::write(files.join("synth").join(format!("g{i:04}.kifu")), text).unwrap();
    }
    for (name, text) in OWN {
        std::fs::write(files.join(name), text).unwrap();
    }
    let db = dir.join("db");
    let rows = import_and_list(&db, &files);
    let text = |r: &Value, k: &str| r[k].as_str().unwrap_or("").to_string();
    let games: Vec<Game> = rows
        .iter()
        .map(|r| {
            let path = r["file"].as_str().unwrap();
            let read = read_bytes(&std::fs::read(path).unwrap(), Some(Path::new(path)));
            let rec = &read.games[r["game_index"].as_u64().unwrap() as usize];
            let moves: Vec<Move> = rec.main.moves.iter().map(|m| m.mv).collect();
            let mut pos = rec.start.clone();
            let mut positions = vec![key(&pos)];
            for &mv in &moves {
                pos.play(mv).unwrap();
                positions.push(key(&pos));
            }
            Game {
                id: r["id"].as_i64().unwrap(),
                file: path.to_string(),
                date: r["date"].as_str().map(str::to_string),
                sente: text(r, "sente"),
                gote: text(r, "gote"),
                event: text(r, "event"),
                opening: text(r, "opening"),
                recognised: text(r, "recognised"),
                plies: r["plies"].as_u64().unwrap(),
                winner: r["winner"].as_str().map(str::to_string),
                handicap: text(r, "handicap"),
                terminal: r["terminal"].as_str().map(str::to_string),
                moves,
                positions,
            }
        })
        .collect();
    assert_eq!(games.len(), 1030 + OWN.len());
    (db, games)
}

/// A filter as its command-line options.
type Filter = Vec<(&'static str, &'static str)>;

fn get<'a>(f: &'a Filter, name: &str) -> Option<&'a str> {
    f.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
}

fn contains_folded(value: &str, q: &str) -> bool {
    fold(value)
        .replace(' ', "")
        .contains(&fold(q).replace(' ', ""))
}

/// `*` in a glob: any run of characters (the only wildcard these tests use).
fn glob(pattern: &str, s: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut rest = s;
    for (i, p) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(p) else {
                return false;
            };
            rest = r;
        } else if i + 1 == parts.len() {
            return rest.ends_with(p);
        } else {
            let Some(at) = rest.find(p) else { return false };
            rest = &rest[at + p.len()..];
        }
    }
    rest.is_empty()
}

/// Whether the filter takes the game, by its rules written out.
fn takes(g: &Game, f: &Filter) -> bool {
    let side = get(f, "--as");
    let as_sente = |q: &str| name_matches(&g.sente, q);
    let as_gote = |q: &str| name_matches(&g.gote, q);
    if let Some(p) = get(f, "--player") {
        let ok = match (side, get(f, "--vs")) {
            (Some("sente"), Some(v)) => as_sente(p) && as_gote(v),
            (Some("gote"), Some(v)) => as_gote(p) && as_sente(v),
            (None, Some(v)) => (as_sente(p) && as_gote(v)) || (as_sente(v) && as_gote(p)),
            (Some("sente"), None) => as_sente(p),
            (Some("gote"), None) => as_gote(p),
            _ => as_sente(p) || as_gote(p),
        };
        if !ok {
            return false;
        }
        if get(f, "--winner") == Some("player") {
            let w = g.winner.as_deref();
            let won = match side {
                Some("sente") => w == Some("sente") && as_sente(p),
                Some("gote") => w == Some("gote") && as_gote(p),
                _ => (w == Some("sente") && as_sente(p)) || (w == Some("gote") && as_gote(p)),
            };
            if !won {
                return false;
            }
        }
    }
    type Check<'a> = (&'a str, &'a dyn Fn(&str) -> bool);
    let checks: [Check; 13] = [
        ("--sente", &|q| as_sente(q)),
        ("--gote", &|q| as_gote(q)),
        ("--event", &|q| contains_folded(&g.event, q)),
        ("--opening", &|q| contains_folded(&g.opening, q)),
        ("--since", &|d| g.date.as_deref().is_some_and(|x| x >= d)),
        ("--until", &|d| {
            g.date
                .as_deref()
                .is_some_and(|x| x <= d || x.starts_with(d))
        }),
        ("--winner", &|w| {
            let w = match w {
                "先手" => "sente",
                "後手" => "gote",
                "player" => return true,
                w => w,
            };
            g.winner.as_deref() == Some(w)
        }),
        ("--handicap", &|h| g.handicap == h),
        ("--min-plies", &|n| g.plies >= n.parse().unwrap()),
        ("--max-plies", &|n| g.plies <= n.parse().unwrap()),
        ("--terminal", &|t| {
            let t = if t == "千日手" { "repetition" } else { t };
            g.terminal.as_deref() == Some(t)
        }),
        ("--source", &|s| glob(s, &g.file)),
        ("--as", &|_| true),
    ];
    checks.iter().all(|(name, ok)| get(f, name).is_none_or(ok))
}

fn args<'a>(cmd: &[&'a str], f: &'a Filter) -> Vec<&'a str> {
    let mut a = cmd.to_vec();
    for (k, v) in f {
        a.push(k);
        a.push(v);
    }
    a
}

/// A date for ordering: unknown dates last.
fn date_key(g: &Game) -> (String, i64) {
    (g.date.clone().unwrap_or_default(), g.id)
}

/// `position` and `tree` for one position against the brute force over the games taken.
fn check_position(db: &Path, games: &[&Game], all: &[Game], pos: &Position, f: &Filter) {
    let sfen = format!("sfen {}", pos.to_sfen());
    let k = key(pos);
    // game → first ply; move → (games, sente, gote, draws, first (date, id))
    let mut want: BTreeMap<i64, u64> = BTreeMap::new();
    let mut tree: BTreeMap<String, (u64, u64, u64, u64)> = BTreeMap::new();
    let mut first: BTreeMap<String, (String, i64)> = BTreeMap::new();
    let mut children: BTreeMap<String, String> = BTreeMap::new();
    for g in games {
        let mut played = BTreeSet::new();
        for (ply, p) in g.positions.iter().enumerate() {
            if *p != k {
                continue;
            }
            want.entry(g.id).or_insert(ply as u64);
            let Some(&mv) = g.moves.get(ply) else {
                continue;
            };
            if !played.insert(mv.usi()) {
                continue;
            }
            children.insert(mv.usi(), g.positions[ply + 1].clone());
            let e = tree.entry(mv.usi()).or_default();
            e.0 += 1;
            match g.winner.as_deref() {
                Some("sente") => e.1 += 1,
                Some("gote") => e.2 += 1,
                Some("draw") => e.3 += 1,
                _ => {}
            }
            let d = (g.date.clone().unwrap_or("~".into()), g.id);
            let f = first.entry(mv.usi()).or_insert(d.clone());
            if d < *f {
                *f = d;
            }
        }
    }
    let lines = Kifudex::new()
        .db(db)
        .args(&args(
            &["position", &sfen, "--json", "--limit", "100000"],
            f,
        ))
        .output()
        .success()
        .json_lines();
    let (total, rows) = lines.split_last().unwrap();
    let got: BTreeMap<i64, u64> = rows
        .iter()
        .map(|r| (r["id"].as_i64().unwrap(), r["ply"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, want, "position {sfen} {f:?}");
    assert_eq!(total["total"].as_u64(), Some(want.len() as u64), "{f:?}");

    // The first three rows of each order, and reversed.
    let by_id: BTreeMap<i64, &Game> = games.iter().map(|g| (g.id, *g)).collect();
    for (sort, reverse) in [("date", false), ("date", true), ("plies", false)] {
        if want.len() > 1000 && sort != "date" {
            continue;
        }
        let mut a = args(&["position", &sfen, "--json", "--limit", "3"], f);
        a.extend(["--sort", sort]);
        if reverse {
            a.push("--reverse");
        }
        let lines = Kifudex::new()
            .db(db)
            .args(&a)
            .output()
            .success()
            .json_lines();
        let got: Vec<i64> = lines[..lines.len() - 1]
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect();
        let mut ids: Vec<i64> = want.keys().copied().collect();
        match sort {
            "date" => ids.sort_by_key(|id| date_key(by_id[id])),
            _ => ids.sort_by_key(|id| (by_id[id].plies, *id)),
        }
        if !reverse {
            ids.reverse();
        }
        ids.truncate(3);
        assert_eq!(
            got, ids,
            "position {sfen} --sort {sort} reverse {reverse} {f:?}"
        );
    }

    let lines = Kifudex::new()
        .db(db)
        .args(&args(&["tree", &sfen, "--json"], f))
        .output()
        .success()
        .json_lines();
    let (totals, rows) = lines.split_last().unwrap();
    assert_eq!(totals["total"].as_u64(), Some(want.len() as u64), "{f:?}");
    let got: BTreeMap<String, (u64, u64, u64, u64)> = rows
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap();
            (
                r["move"].as_str().unwrap().to_string(),
                (n("count"), n("sente_wins"), n("gote_wins"), n("draws")),
            )
        })
        .collect();
    assert_eq!(got, tree, "tree {sfen} {f:?}");
    for r in rows {
        let mv = r["move"].as_str().unwrap();
        let (date, id) = &first[mv];
        assert_eq!(r["first_game"].as_i64(), Some(*id), "{sfen} {mv} {f:?}");
        let date = (date != "~").then_some(date.as_str());
        assert_eq!(r["first_date"].as_str(), date, "{sfen} {mv} {f:?}");
        // Games reaching the position after the move, by any order.
        let child = &children[mv];
        let reached = games.iter().filter(|g| g.positions.contains(child)).count();
        assert_eq!(
            r["reached"].as_u64(),
            Some(reached as u64),
            "{sfen} {mv} {f:?}"
        );
    }
    let _ = all;
}

#[test]
fn every_filter_on_every_command_agrees_with_the_brute_force() {
    let dir = TempDb::new("filter-brute");
    let (db, games) = build(&dir);
    let filters: Vec<Filter> = vec![
        vec![],
        vec![("--player", "佐藤")],
        vec![("--player", "一郎")],
        vec![("--player", "佐藤"), ("--as", "sente")],
        vec![
            ("--player", "鈴木"),
            ("--as", "gote"),
            ("--winner", "player"),
        ],
        vec![("--player", "佐藤"), ("--winner", "player")],
        vec![("--player", "佐藤"), ("--vs", "鈴木")],
        vec![("--player", "藤井"), ("--vs", "羽生"), ("--as", "sente")],
        vec![("--sente", "高橋"), ("--gote", "田中")],
        vec![("--event", "竜王")],
        vec![("--opening", "飛車")],
        vec![("--since", "2005"), ("--until", "2012-06")],
        vec![("--since", "2019-07-01")],
        vec![("--winner", "draw")],
        vec![("--winner", "後手")],
        vec![("--handicap", "香落ち")],
        vec![("--min-plies", "80"), ("--max-plies", "120")],
        vec![("--terminal", "千日手")],
        vec![("--terminal", "time_up")],
        vec![("--source", "*/pro/*")],
        vec![("--player", "存在しない名前")],
        vec![
            ("--player", "一郎"),
            ("--since", "2000"),
            ("--winner", "sente"),
            // Part of a header's opening: a name kifudex knows (矢倉) also takes the games it
            // recognises as one, which tests/it/openings.rs checks against its own brute force.
            ("--opening", "飛車"),
        ],
    ];
    // Positions: the start (more than 1,000 games), an early common one, one after a few
    // moves, and positions taken from games of the collection.
    let mut queries = vec![
        Position::startpos(),
        kifudex::query::parse_position("startpos moves 7g7f").unwrap(),
        kifudex::query::parse_position("startpos moves 7g7f 3c3d").unwrap(),
        kifudex::query::parse_position("startpos moves 7g7f 8c8d").unwrap(),
    ];
    for g in games.iter().step_by(211) {
        let ply = g.moves.len().min(12);
        let mut pos = Position::from_sfen(&format!("{} 1", g.positions[0])).unwrap();
        for &mv in &g.moves[..ply] {
            pos.play(mv).unwrap();
        }
        queries.push(pos);
    }
    let all_text: Vec<Value> = Kifudex::new()
        .db(&db)
        .args(&["text", "comment:好手", "--json", "--limit", "100000"])
        .output()
        .success()
        .json_lines();
    let text_ids = |rows: &[Value]| -> BTreeSet<i64> {
        rows.iter().map(|r| r["id"].as_i64().unwrap()).collect()
    };
    let all_text = text_ids(&all_text);
    assert!(all_text.len() > 20, "{} games comment 好手", all_text.len());
    for f in &filters {
        let taken: Vec<&Game> = games.iter().filter(|g| takes(g, f)).collect();
        let want: BTreeSet<i64> = taken.iter().map(|g| g.id).collect();
        // Each filter takes some games and leaves some (but the first and the one that names
        // nobody), so that no check passes by taking all or none.
        match f.first().map(|x| x.1) {
            None => assert_eq!(want.len(), games.len()),
            Some("存在しない名前") => assert!(want.is_empty()),
            _ => assert!(
                !want.is_empty() && want.len() < games.len(),
                "{f:?}: {}",
                want.len()
            ),
        }
        // search
        let rows = Kifudex::new()
            .db(&db)
            .args(&args(&["search", "--json", "--limit", "100000"], f))
            .output()
            .success()
            .json_lines();
        let got: BTreeSet<i64> = rows.iter().map(|r| r["id"].as_i64().unwrap()).collect();
        assert_eq!(got, want, "search {f:?}");
        // stats
        let s = &Kifudex::new()
            .db(&db)
            .args(&args(&["stats", "--json"], f))
            .output()
            .success()
            .json_lines()[0];
        assert_eq!(s["games"].as_u64(), Some(want.len() as u64), "stats {f:?}");
        if !f.is_empty() {
            let positions: u64 = taken.iter().map(|g| g.plies + 1).sum();
            assert_eq!(s["positions"].as_u64(), Some(positions), "stats {f:?}");
            let players: BTreeSet<&str> = taken
                .iter()
                .flat_map(|g| [g.sente.as_str(), g.gote.as_str()])
                .filter(|p| !p.is_empty())
                .collect();
            assert_eq!(s["players"].as_u64(), Some(players.len() as u64), "{f:?}");
        }
        // text: the unfiltered hits of the games taken
        let rows = Kifudex::new()
            .db(&db)
            .args(&args(
                &["text", "comment:好手", "--json", "--limit", "100000"],
                f,
            ))
            .output()
            .success()
            .json_lines();
        let got = text_ids(&rows);
        let want_text: BTreeSet<i64> = all_text.intersection(&want).copied().collect();
        assert_eq!(got, want_text, "text {f:?}");
        // position and tree
        for q in &queries {
            check_position(&db, &taken, &games, q, f);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn filter_fields_inside_a_text_query() {
    let dir = TempDb::new("filter-text");
    let (db, games) = build(&dir);
    let all = Kifudex::new()
        .db(&db)
        .args(&["text", "comment:好手", "--json", "--limit", "100000"])
        .output()
        .success()
        .json_lines();
    for (query, f) in [
        (
            "player:佐藤 comment:好手",
            vec![("--player", "佐藤")] as Filter,
        ),
        (
            "comment:好手 since:2010 winner:sente",
            vec![("--since", "2010"), ("--winner", "sente")],
        ),
        (
            "player:\"佐藤 一郎\" as:gote comment:好手",
            vec![("--player", "佐藤 一郎"), ("--as", "gote")],
        ),
    ] {
        let want: BTreeSet<i64> = all
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .filter(|id| {
                let g = games.iter().find(|g| g.id == *id).unwrap();
                takes(g, &f)
            })
            .collect();
        assert!(!want.is_empty(), "{query}");
        let ids = |a: &[&str]| -> BTreeSet<i64> {
            Kifudex::new()
                .db(&db)
                .args(a)
                .output()
                .success()
                .json_lines()
                .iter()
                .map(|r| r["id"].as_i64().unwrap())
                .collect()
        };
        assert_eq!(
            ids(&["text", query, "--json", "--limit", "100000"]),
            want,
            "{query}"
        );
        // The same as options.
        let opts = args(&["text", "comment:好手", "--json", "--limit", "100000"], &f);
        assert_eq!(ids(&opts), want, "{query} as options");
    }
    // Hits are the best of the games taken, not the best overall then filtered: with a limit
    // of 3, every hit is of a game the filter takes.
    let rows = Kifudex::new()
        .db(&db)
        .args(&[
            "text",
            "comment:好手",
            "--player",
            "鈴木",
            "--json",
            "--limit",
            "3",
        ])
        .output()
        .success()
        .json_lines();
    assert_eq!(rows.len(), 3);
    for r in &rows {
        let g = games
            .iter()
            .find(|g| g.id == r["id"].as_i64().unwrap())
            .unwrap();
        assert!(name_matches(&g.sente, "鈴木") || name_matches(&g.gote, "鈴木"));
    }
    let out = Kifudex::new()
        .db(&db)
        .args(&["text", "player:佐藤"])
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        out.stderr,
        "kifudex: the text query holds no words to look for (only filter fields): use `kifudex search` for games by their headers\n"
    );
    let _ = out.stdout.clone();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_filter_asked_wrongly_is_a_usage_error() {
    let dir = TempDb::new("filter-usage");
    let db = dir.join("db");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a.kif"), OWN[1].1).unwrap();
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    for (a, message) in [
        (
            vec!["search", "--since", "2019-13"],
            "kifudex: --since \"2019-13\" is no date (there is no month 13): give YYYY, YYYY-MM or YYYY-MM-DD\n",
        ),
        (
            vec!["position", "startpos", "--until", "2019-02-30"],
            "kifudex: --until \"2019-02-30\" is no date (2019-02 has no day 30): give YYYY, YYYY-MM or YYYY-MM-DD\n",
        ),
        (
            vec!["tree", "startpos", "--since", "2019-00"],
            "kifudex: --since \"2019-00\" is no date (there is no month 00): give YYYY, YYYY-MM or YYYY-MM-DD\n",
        ),
        (
            vec!["search", "--since", "2021", "--until", "2020-12"],
            "kifudex: --since 2021 is after --until 2020-12: no game can match\n",
        ),
        (
            vec!["stats", "--winner", "nobody"],
            "kifudex: --winner \"nobody\": give sente, gote, draw (先手, 後手, 引き分け) or player\n",
        ),
        (
            vec!["search", "--winner", "player"],
            "kifudex: --winner player needs --player (the player it is about)\n",
        ),
        (
            vec!["search", "--terminal", "checkmate"],
            "kifudex: --terminal \"checkmate\" names no ending; known: resign abort repetition impasse time_up illegal_move illegal_win illegal_loss entering_king_win entering_king_draw default_win default_loss mate no_mate takeback max_moves error (or 投了, 千日手, 持将棋, 中断 …)\n",
        ),
    ] {
        let out = Kifudex::new().db(&db).args(&a).output();
        assert_eq!(out.status.code(), Some(2), "{a:?}");
        assert_eq!(out.stderr, message, "{a:?}");
        assert_eq!(out.stdout, "", "{a:?}");
    }
    // Partial dates keep working; --vs and --as need --player.
    let rows = Kifudex::new()
        .db(&db)
        .args(&["search", "--since", "2020-11", "--until", "2020", "--json"])
        .output()
        .success()
        .json_lines();
    assert_eq!(rows.len(), 1);
    fails_with(
        &db,
        &["search", "--vs", "羽生"],
        "kifudex: --vs needs --player (the player it is about)\n",
    );
    fails_with(
        &db,
        &["tree", "startpos", "--as", "sente"],
        "kifudex: --as needs --player (the player it is about)\n",
    );
    fails_with(
        &db,
        &["players", "羽生", "--player", "藤井"],
        "kifudex: give the player once: as NAME or as --player\n",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn players_agree_with_the_brute_force() {
    use kifudex::normalize::{name_key, strip_titles};
    let dir = TempDb::new("filter-players");
    let (db, games) = build(&dir);
    let group = |n: &str| {
        let k = name_key(n);
        let b = strip_titles(&k);
        if b.is_empty() { k } else { b }
    };
    for (name, f) in [
        (None, vec![] as Filter),
        // Every game again, through the games rather than the players' totals.
        (None, vec![("--min-plies", "0")]),
        (Some("佐藤"), vec![]),
        (Some("佐藤"), vec![("--as", "sente")]),
        (Some("羽生"), vec![]),
        (None, vec![("--since", "2010"), ("--opening", "飛車")]),
        (Some("佐藤"), vec![("--vs", "鈴木")]),
        (Some("鈴木"), vec![("--as", "gote"), ("--until", "2015")]),
    ] {
        // group → (games, sente W-D-L, gote W-D-L, first, last, openings most played)
        type Line = (u64, [u64; 3], [u64; 3], String, String, Vec<(String, u64)>);
        let mut want: BTreeMap<String, Line> = BTreeMap::new();
        let mut filter = f.clone();
        if let Some(n) = name {
            filter.push(("--player", n));
        }
        for g in games.iter().filter(|g| takes(g, &filter)) {
            for (p, sente) in [(&g.sente, true), (&g.gote, false)] {
                if p.is_empty() || name.is_some_and(|n| !name_matches(p, n)) {
                    continue;
                }
                if get(&f, "--as").is_some_and(|s| (s == "sente") != sente) {
                    continue;
                }
                let e = want.entry(group(p)).or_insert((
                    0,
                    [0; 3],
                    [0; 3],
                    "~".into(),
                    String::new(),
                    Vec::new(),
                ));
                e.0 += 1;
                let r = if sente { &mut e.1 } else { &mut e.2 };
                match (g.winner.as_deref(), sente) {
                    (Some("sente"), true) | (Some("gote"), false) => r[0] += 1,
                    (Some("draw"), _) => r[1] += 1,
                    (Some(_), _) => r[2] += 1,
                    _ => {}
                }
                if let Some(d) = &g.date {
                    e.3 = e.3.clone().min(d.clone());
                    e.4 = e.4.clone().max(d.clone());
                }
                // The header's opening, or the recognised label.
                let o = [&g.opening, &g.recognised]
                    .into_iter()
                    .find(|o| !o.is_empty());
                if let Some(o) = o {
                    match e.5.iter_mut().find(|(n, _)| n == o) {
                        Some((_, c)) => *c += 1,
                        None => e.5.push((o.clone(), 1)),
                    }
                }
            }
        }
        for e in want.values_mut() {
            e.5.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
            e.5.truncate(5);
        }
        let mut a = vec!["players", "--json", "--limit", "100000"];
        if let Some(n) = name {
            a.push(n);
        }
        let rows = Kifudex::new()
            .db(&db)
            .args(&args(&a, &f))
            .output()
            .success()
            .json_lines();
        let wdl = |r: &Value| {
            [
                r["wins"].as_u64().unwrap(),
                r["draws"].as_u64().unwrap(),
                r["losses"].as_u64().unwrap(),
            ]
        };
        let got: BTreeMap<String, Line> = rows
            .iter()
            .map(|r| {
                (
                    group(r["name"].as_str().unwrap()),
                    (
                        r["games"].as_u64().unwrap(),
                        wdl(&r["sente"]),
                        wdl(&r["gote"]),
                        r["first_date"].as_str().unwrap_or("~").to_string(),
                        r["last_date"].as_str().unwrap_or("").to_string(),
                        r["openings"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|o| (o[0].as_str().unwrap().into(), o[1].as_u64().unwrap()))
                            .collect(),
                    ),
                )
            })
            .collect();
        assert!(!want.is_empty(), "{name:?} {f:?}");
        assert_eq!(got, want, "players {name:?} {f:?}");
        // Most games first.
        let counts: Vec<u64> = rows.iter().map(|r| r["games"].as_u64().unwrap()).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn fails_with(db: &Path, a: &[&str], message: &str) {
    let out = Kifudex::new().db(db).args(a).output();
    assert_eq!(out.stderr, message, "{a:?}");
    assert_eq!(out.status.code(), Some(2), "{a:?}");
}
