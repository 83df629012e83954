//! The questions the evaluations answer over a database — `blunders`, `stats --evals` (the
//! calibration) and the players' loss per move — each compared with a brute-force count
//! written here from the values the test wrote into the records (`evals_db::write_games`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::evals_db::{Written, generated, points};
use crate::util::Kifudex;

/// One move of a generated game whose positions before and after are both evaluated.
struct Drop {
    game: i64,
    ply: usize,
    sente: bool,
    before: i32,
    after: i32,
}

impl Drop {
    fn view(&self, p: i32) -> i32 {
        if self.sente { p } else { -p }
    }

    fn drop(&self) -> i32 {
        self.view(self.before) - self.view(self.after)
    }

    /// The loss as lichess counts it: both sides capped at ±1000, a gain counting 0.
    fn capped_loss(&self) -> i32 {
        let cap = |p: i32| self.view(p).clamp(-1000, 1000);
        (cap(self.before) - cap(self.after)).max(0)
    }
}

fn all_drops(games: &[Written]) -> Vec<Drop> {
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        for ply in 1..=g.plies {
            if let (Some(b), Some(a)) = (g.at(ply - 1), g.at(ply)) {
                out.push(Drop {
                    game: i as i64 + 1,
                    ply,
                    sente: ply % 2 == 1,
                    before: points(b),
                    after: points(a),
                });
            }
        }
    }
    out
}

fn run_json(db: &std::path::Path, args: &[&str]) -> Vec<Value> {
    Kifudex::new()
        .db(db)
        .args(args)
        .output()
        .success()
        .json_lines()
}

/// The blunders as `blunders --json` lists them, without the totals line: (id, ply, side,
/// before, after, drop, player).
fn listed(lines: &[Value]) -> Vec<Value> {
    lines[..lines.len() - 1]
        .iter()
        .map(|b| {
            json!([
                b["id"],
                b["ply"],
                b["side"],
                b["before"],
                b["after"],
                b["drop"],
                b["player"]
            ])
        })
        .collect()
}

fn expected(games: &[Written], drops: &[&Drop]) -> Vec<Value> {
    let mut d: Vec<&&Drop> = drops.iter().collect();
    d.sort_by(|a, b| {
        b.drop()
            .cmp(&a.drop())
            .then(a.game.cmp(&b.game))
            .then(a.ply.cmp(&b.ply))
    });
    d.iter()
        .map(|x| {
            let g = &games[x.game as usize - 1];
            let (side, player) = if x.sente {
                ("sente", &g.sente)
            } else {
                ("gote", &g.gote)
            };
            json!([x.game, x.ply, side, x.before, x.after, x.drop(), player])
        })
        .collect()
}

#[test]
fn blunders_are_every_drop_of_at_least_drop_worst_first() {
    let (dir, games) = generated("evals-blunders", 40, 31);
    let db = dir.join("db");
    let drops = all_drops(&games);
    let evaluated = games
        .iter()
        .filter(|g| g.values.iter().any(Option::is_some))
        .count() as u64;
    for limit_drop in [300, 1000, 20_000] {
        let want: Vec<&Drop> = drops.iter().filter(|d| d.drop() >= limit_drop).collect();
        assert!(!want.is_empty(), "--drop {limit_drop}");
        let d = limit_drop.to_string();
        let lines = run_json(&db, &["blunders", "--json", "--limit", "0", "--drop", &d]);
        assert_eq!(listed(&lines), expected(&games, &want), "--drop {d}");
        assert_eq!(
            lines.last().unwrap(),
            &json!({"total": want.len(), "games": evaluated})
        );
        // The position is the one before the move, and the move is the record's.
        for b in &lines[..lines.len() - 1] {
            let pos = kifudex::shogi::Position::from_sfen(b["sfen"].as_str().unwrap()).unwrap();
            let mv = kifudex::shogi::Move::from_usi(b["move"].as_str().unwrap()).unwrap();
            assert!(pos.is_legal(mv), "{b}");
            assert!(b["better"].is_null(), "the records carry no variation: {b}");
            assert_eq!(b["evaluations"], "record");
        }
        // --limit keeps the worst.
        let top = run_json(&db, &["blunders", "--json", "--limit", "3", "--drop", &d]);
        let all = expected(&games, &want);
        assert_eq!(listed(&top), all[..all.len().min(3)]);
    }
    // Whose moves: a side, a player, a player on a side.
    let by = |keep: &dyn Fn(&Drop) -> bool| -> Vec<&Drop> {
        drops
            .iter()
            .filter(|d| d.drop() >= 300 && keep(d))
            .collect()
    };
    let gote = run_json(&db, &["blunders", "--json", "--limit", "0", "--as", "gote"]);
    assert_eq!(listed(&gote), expected(&games, &by(&|d| !d.sente)));
    let player = |d: &Drop| {
        let g = &games[d.game as usize - 1];
        if d.sente { &g.sente } else { &g.gote }
    };
    let kou = run_json(
        &db,
        &["blunders", "--json", "--limit", "0", "--player", "甲"],
    );
    let want = by(&|d| player(d) == "甲");
    assert!(!want.is_empty());
    assert_eq!(listed(&kou), expected(&games, &want));
    let kou_gote = run_json(
        &db,
        &[
            "blunders", "--json", "--limit", "0", "--player", "甲", "--as", "gote",
        ],
    );
    assert_eq!(
        listed(&kou_gote),
        expected(&games, &by(&|d| player(d) == "甲" && !d.sente))
    );
    // CSV: a header and a row each.
    let csv = Kifudex::new()
        .db(&db)
        .args(["blunders", "--csv", "--limit", "0"])
        .output()
        .success();
    assert_eq!(
        csv.stdout.lines().next().unwrap(),
        "id,ply,side,player,move,before,after,drop,better,from,sfen"
    );
    assert_eq!(csv.stdout.lines().count(), 1 + by(&|_| true).len());
    // The table ends with the count.
    let table = Kifudex::new()
        .db(&db)
        .args(["blunders", "--limit", "2", "--drop", "1000"])
        .output()
        .success();
    let n = drops.iter().filter(|d| d.drop() >= 1000).count();
    assert!(
        table.stdout.trim_end().ends_with(&format!(
            "2 of {n} blunders (a drop of 1000 or more) in {evaluated} games with evaluations"
        )),
        "{}",
        table.stdout
    );
}

#[test]
fn the_calibration_counts_each_evaluated_position_by_its_advantage() {
    let (dir, games) = generated("evals-calibration", 40, 37);
    let db = dir.join("db");
    for width in [200, 750] {
        // (low, decisive) -> [positions, games, ahead won, drawn, ahead lost]
        let mut want: BTreeMap<(bool, i32), [u64; 5]> = BTreeMap::new();
        let (mut counted, mut level) = (0u64, 0u64);
        for g in &games {
            let outcome = match g.winner {
                Some(w) => w,
                None => continue,
            };
            let values: Vec<i32> = (0..=g.plies).filter_map(|p| g.at(p)).map(points).collect();
            if values.is_empty() {
                continue;
            }
            counted += 1;
            let mut seen = std::collections::BTreeSet::new();
            for v in values {
                if v == 0 {
                    level += 1;
                    continue;
                }
                let a = v.abs();
                let key = if a >= 30_000 {
                    (true, 30_000)
                } else if a >= 3000 {
                    (false, 3000)
                } else {
                    (false, a / width * width)
                };
                let e = want.entry(key).or_default();
                e[0] += 1;
                if seen.insert(key) {
                    e[1] += 1;
                }
                let ahead = if v > 0 { "sente" } else { "gote" };
                match outcome {
                    "draw" => e[3] += 1,
                    w if w == ahead => e[2] += 1,
                    _ => e[4] += 1,
                }
            }
        }
        let w = width.to_string();
        let lines = run_json(&db, &["stats", "--evals", "--json", "--bucket", &w]);
        let got: BTreeMap<(bool, i32), [u64; 5]> = lines[..lines.len() - 1]
            .iter()
            .map(|b| {
                let n = |k: &str| b[k].as_u64().unwrap();
                (
                    (
                        b["decisive"].as_bool().unwrap(),
                        b["low"].as_i64().unwrap() as i32,
                    ),
                    [
                        n("positions"),
                        n("games"),
                        n("ahead_won"),
                        n("drawn"),
                        n("ahead_lost"),
                    ],
                )
            })
            .collect();
        assert_eq!(got, want, "--bucket {width}");
        assert_eq!(
            lines.last().unwrap(),
            &json!({"games": counted, "level": level, "width": width})
        );
    }
}

#[test]
fn players_show_their_loss_per_move_and_blunders() {
    let (dir, games) = generated("evals-players", 30, 41);
    let db = dir.join("db");
    // name -> (evaluated games, moves, loss, blunders), a game counted once a side played.
    let mut want: BTreeMap<String, (u64, u64, u64, u64)> = BTreeMap::new();
    let drops = all_drops(&games);
    for (i, g) in games.iter().enumerate() {
        for (sente, name) in [(true, &g.sente), (false, &g.gote)] {
            let mine: Vec<&Drop> = drops
                .iter()
                .filter(|d| d.game == i as i64 + 1 && d.sente == sente)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let e = want.entry(name.clone()).or_default();
            e.0 += 1;
            e.1 += mine.len() as u64;
            e.2 += mine.iter().map(|d| d.capped_loss() as u64).sum::<u64>();
            e.3 += mine.iter().filter(|d| d.drop() >= 300).count() as u64;
        }
    }
    assert_eq!(want.len(), 4);
    let rows = run_json(&db, &["players", "--json"]);
    let got: BTreeMap<String, (u64, f64, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                (
                    r["evaluated_games"].as_u64().unwrap(),
                    r["eval_loss"].as_f64().unwrap(),
                    r["blunders"].as_u64().unwrap(),
                ),
            )
        })
        .collect();
    assert_eq!(got.len(), 4);
    for (name, (games_n, moves, loss, blunders)) in &want {
        let (g, l, b) = got[name];
        assert_eq!((g, b), (*games_n, *blunders), "{name}");
        assert!(
            (l - *loss as f64 / *moves as f64).abs() < 1e-9,
            "{name}: {l}"
        );
    }
    // The table gets the columns when some games have evaluations.
    let table = Kifudex::new().db(&db).args(["players"]).output().success();
    let header = table.stdout.lines().next().unwrap().to_string();
    assert!(
        header.contains("evaluated") && header.contains("loss/move"),
        "{header}"
    );
}

/// `/api/game/ID` carries the game's blunders (the explorer marks them): the drops of the
/// game's moves of at least 300 (or `drop`) computed here, in ply order, and the very rows
/// `blunders --json` lists for the game.
#[test]
fn the_game_call_carries_its_blunders() {
    use kifudex::serve::{Params, answer};
    let (dir, games) = generated("evals-game-blunders", 12, 7);
    let db = dir.join("db");
    let store = kifudex::store::Store::open_read_only(&db).unwrap();
    let drops = all_drops(&games);
    for limit_drop in [300, 1000] {
        let d = limit_drop.to_string();
        let cli = run_json(&db, &["blunders", "--json", "--limit", "0", "--drop", &d]);
        let mut with_some = 0;
        for id in 1..=games.len() as i64 {
            let query = if limit_drop == 300 {
                String::new()
            } else {
                format!("drop={d}")
            };
            let api: Value = serde_json::from_str(
                &answer(
                    &store,
                    &format!("/api/game/{id}"),
                    &Params::parse(&query).unwrap(),
                )
                .unwrap(),
            )
            .unwrap();
            let shown: Vec<(u64, i64)> = api["blunders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| (b["ply"].as_u64().unwrap(), b["drop"].as_i64().unwrap()))
                .collect();
            let want: Vec<(u64, i64)> = drops
                .iter()
                .filter(|x| x.game == id && x.drop() >= limit_drop)
                .map(|x| (x.ply as u64, i64::from(x.drop())))
                .collect();
            assert_eq!(shown, want, "game {id}, drop {d}");
            let mut rows: Vec<&Value> = cli[..cli.len() - 1]
                .iter()
                .filter(|b| b["id"] == id)
                .collect();
            rows.sort_by_key(|b| b["ply"].as_u64());
            assert_eq!(
                api["blunders"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .collect::<Vec<_>>(),
                rows
            );
            with_some += usize::from(!want.is_empty());
        }
        assert!(with_some >= 2, "drop {d}: {with_some} games with blunders");
    }
    for bad in ["drop=0", "drop=x", "ply=3"] {
        let e = answer(&store, "/api/game/1", &Params::parse(bad).unwrap()).unwrap_err();
        assert_eq!(e.status(), 400, "{bad}: {e}");
    }
}
