//! `kifudex analyse` with the real engines (Debian's fairy-stockfish and gpsusi; skipped when
//! missing): every main-line position of the selected games gets its evaluation, a best move
//! legal there and the start of a variation legal move after move; a known mate is a mate; a
//! second run analyses nothing; a run killed with SIGKILL in the middle is taken up by the
//! next, which asks the engine only for the positions left. No test depends on how fast
//! anything runs: the kill waits for what the database holds, the engine held at a position.
//! A fake engine that dies at a position shows the run reporting it, restarting it and going
//! on; bad commands and options are clear errors.

use std::path::Path;
use std::time::{Duration, Instant};

use kifudex::shogi::{Move, Position};
use serde_json::Value;

use crate::util::{Kifudex, TempDb};

/// The engine `name` when it is installed (on the PATH or in /usr/games).
fn installed(name: &str) -> bool {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()));
    let found = on_path || Path::new("/usr/games").join(name).is_file();
    if !found {
        eprintln!(
            "skipped: the engine '{name}' is not installed (scripts/install_engines.sh installs it)"
        );
    }
    found
}

/// A database of `n` generated games (`evals_db::write_games`), a record ending in a mate in
/// 3 for sente (game n + 1: its two positions, then mated after the second move), and the
/// number of positions of each game.
fn database(name: &str, n: usize, seed: u64) -> (TempDb, Vec<usize>) {
    let dir = TempDb::new(name);
    let files = dir.join("files");
    let games = crate::evals_db::write_games(&files, n, seed);
    // A rook sacrifice, then the gold: sente mates in 3 from the start.
    std::fs::write(
        files.join("zz-mate.usi"),
        "sfen 7k1/9/8R/9/9/9/9/9/4K4 b GR 1 moves 1c2c+\n",
    )
    .unwrap();
    Kifudex::new()
        .db(dir.join("db"))
        .args(["import", files.to_str().unwrap()])
        .output()
        .success();
    let mut positions: Vec<usize> = games.iter().map(|g| g.plies + 1).collect();
    positions.push(2);
    (dir, positions)
}

fn analyse(db: &Path, engine: &str, extra: &[&str]) -> Value {
    let mut args = vec!["analyse", "--json", "--engine", engine];
    args.extend_from_slice(extra);
    let out = Kifudex::new().db(db).args(&args).output().success();
    serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

fn shown(db: &Path, id: usize) -> Value {
    let out = Kifudex::new()
        .db(db)
        .args(["show", &id.to_string(), "--evals", "--json"])
        .output()
        .success();
    serde_json::from_str(&out.stdout).unwrap()
}

/// Every position of game `id` has an evaluation, a best move legal there (or `resign` where
/// there is none) and a variation legal move after move that starts with it.
/// With `fairy`, the nodes it searched at least (it reports them, and its depth).
fn check_game(db: &Path, id: usize, positions: usize, limits: &str, fairy: Option<u64>) {
    let store = kifudex::store::Store::open_read_only(db).unwrap();
    let line = store.game_line(id as i64).unwrap().unwrap();
    let g = shown(db, id);
    assert_eq!(g["analysis"]["limits"], limits, "game {id}");
    let evals = g["evals"].as_array().unwrap();
    let plies: Vec<u64> = evals.iter().map(|e| e["ply"].as_u64().unwrap()).collect();
    assert_eq!(
        plies,
        (0..positions as u64).collect::<Vec<_>>(),
        "game {id}"
    );
    let mut pos: Position = line.start.clone();
    for (ply, e) in evals.iter().enumerate() {
        assert!(e["value"].is_i64() || e["mate_for"].is_string(), "{e}");
        assert_eq!(e["source"], "engine");
        let best = e["best"].as_str().unwrap();
        // An engine resigns where it has no move, or is lost (gpsusi does).
        let lost =
            e["mate_for"].is_string() || e["value"].as_i64().is_some_and(|v| v.abs() >= 30_000);
        if pos.legal_moves().is_empty() || (best == "resign" && lost) {
            assert_eq!(best, "resign", "game {id} ply {ply}");
        } else {
            let m = Move::from_usi(best).unwrap();
            assert!(pos.is_legal(m), "game {id} ply {ply}: {best}");
            let pv: Vec<&str> = e["pv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert!(pv.len() <= 4, "{e}");
            let mut p = pos.clone();
            for m in pv {
                let m = Move::from_usi(m).unwrap();
                assert!(p.is_legal(m), "game {id} ply {ply}: {m} in the variation");
                p.play(m).unwrap();
            }
            // fairy-stockfish reports its depth and nodes, and its variation starts with
            // its choice.
            if let Some(n) = fairy {
                // A mate found ends the search sooner.
                let nodes = e["nodes"].as_u64().unwrap();
                assert!(nodes >= n || e["mate"].is_i64(), "{e}");
                assert!(e["depth"].as_u64().is_some_and(|d| d >= 1), "{e}");
                assert_eq!(e["pv"][0], best, "{e}");
            }
        }
        if ply < line.moves.len() {
            pos.play(line.moves[ply]).unwrap();
        }
    }
}

#[test]
fn fairy_stockfish_analyses_every_position_once() {
    if !installed("fairy-stockfish") {
        return;
    }
    let (dir, positions) = database("analyse-fairy", 5, 3);
    let db = dir.join("db");
    let total: usize = positions.iter().sum();
    let r = analyse(
        &db,
        "fairy-stockfish",
        &["--nodes", "3000", "--jobs", "2", "--option", "Threads=1"],
    );
    assert_eq!(
        r["analysis"]["engine"].as_str().unwrap().split(" [").nth(1),
        Some("Threads=1]")
    );
    assert!(
        r["analysis"]["engine"]
            .as_str()
            .unwrap()
            .starts_with("Fairy-Stockfish"),
        "{r}"
    );
    assert_eq!(r["analysis"]["limits"], "nodes 3000");
    assert_eq!(r["games"], positions.len());
    assert_eq!(r["positions"], total);
    assert_eq!(r["analysed"], total);
    assert_eq!(r["completed"], positions.len());
    assert_eq!(
        (r["resumed"].as_u64(), r["left"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(r["failures"], 0);
    for (i, &n) in positions.iter().enumerate() {
        check_game(&db, i + 1, n, "nodes 3000", Some(3000));
    }
    // The mate in 3, and the mate in 2 after the sacrifice.
    let mate = shown(&db, positions.len());
    let mates: Vec<(Value, Value)> = mate["evals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["mate"].clone(), e["mate_for"].clone()))
        .collect();
    assert_eq!(
        mates,
        [
            (Value::from(3), Value::from("sente")),
            (Value::from(2), Value::from("sente"))
        ]
    );
    // Nothing twice: the same engine and limits again find nothing to do; a filter picks
    // what another limit analyses.
    let again = analyse(
        &db,
        "fairy-stockfish",
        &["--nodes", "3000", "--option", "Threads=1"],
    );
    assert_eq!(
        (again["games"].as_u64(), again["analysed"].as_u64()),
        (Some(0), Some(0))
    );
    let other = analyse(
        &db,
        "fairy-stockfish",
        &["--depth", "2", "--max-plies", "20"],
    );
    let short: Vec<usize> = positions
        .iter()
        .enumerate()
        .filter(|(_, n)| **n - 1 <= 20)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(other["games"], short.len());
    assert_eq!(other["analysis"]["limits"], "depth 2");
    for id in short {
        check_game(&db, id, positions[id - 1], "depth 2", None);
    }
    // The evaluations feed the questions: blunders name the engine's better move.
    let out = Kifudex::new()
        .db(&db)
        .args(["blunders", "--json", "--limit", "0", "--drop", "1"])
        .output()
        .success();
    let lines = out.json_lines();
    assert!(lines.len() > 1);
    for b in &lines[..lines.len() - 1] {
        assert!(
            b["evaluations"]
                .as_str()
                .unwrap()
                .starts_with("Fairy-Stockfish")
        );
        if let Some(better) = b["better"].as_str() {
            let pos = Position::from_sfen(b["sfen"].as_str().unwrap()).unwrap();
            assert!(pos.is_legal(Move::from_usi(better).unwrap()), "{b}");
            assert_ne!(b["better"], b["move"]);
        }
    }
}

/// A wrapper of fairy-stockfish that counts the `go` commands it passes on (in `gos`) and,
/// while the file `hold` holds a number N, keeps the Nth back: the engine never answers, and
/// the run waits there until it is killed.
fn held_engine(dir: &Path) -> String {
    let script = format!(
        r#"#!/bin/bash
# Debian puts its engines in /usr/games.
PATH="$PATH:/usr/games"
here="{}"
n=0
while IFS= read -r line; do
  case "$line" in
    go*) n=$((n + 1)); echo "$n" >> "$here/gos"
         if [ -e "$here/hold" ] && [ "$n" -ge "$(cat "$here/hold")" ]; then
           echo "$BASHPID" > "$here/held"
           exec sleep 100000
         fi ;;
  esac
  echo "$line"
done | fairy-stockfish
"#,
        dir.display()
    );
    let path = dir.join("held.sh");
    std::fs::write(&path, script).unwrap();
    format!("bash {}", path.display())
}

fn saved(db: &Path) -> Vec<(i64, i64, Vec<u8>)> {
    let conn = rusqlite::Connection::open_with_flags(
        db.join("kifudex.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    conn.prepare("SELECT game_id, positions, details FROM engine_evals ORDER BY game_id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_run_killed_in_the_middle_is_taken_up_where_it_stopped() {
    if !installed("fairy-stockfish") {
        return;
    }
    let (dir, positions) = database("analyse-kill", 4, 5);
    let db = dir.join("db");
    let total: usize = positions.iter().sum();
    let engine = held_engine(dir.path());
    // Held in the middle of the third game.
    let hold = positions[0] + positions[1] + positions[2] / 2 + 1;
    std::fs::write(dir.join("hold"), hold.to_string()).unwrap();
    let mut child = Kifudex::new()
        .db(&db)
        .args([
            "analyse",
            "--engine",
            &engine,
            "--nodes",
            "2000",
            "--timeout",
            "900",
        ])
        .command()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Every position before the held one is saved (the run saves what it found each second
    // while it waits); a generous bound only stops a broken run from hanging the test.
    let until = Instant::now() + Duration::from_secs(300);
    while saved(&db).iter().map(|r| r.1).sum::<i64>() < hold as i64 - 1 {
        assert!(Instant::now() < until, "the run saved {:?}", saved(&db));
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let held: i32 = std::fs::read_to_string(dir.join("held"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = std::process::Command::new("kill")
        .arg(held.to_string())
        .status();
    let before = saved(&db);
    assert_eq!(before.iter().map(|r| r.1).sum::<i64>(), hold as i64 - 1);
    assert_eq!(
        before.iter().map(|r| r.1).collect::<Vec<_>>(),
        [
            positions[0] as i64,
            positions[1] as i64,
            positions[2] as i64 / 2
        ]
    );
    // Taken up: the engine is asked for the positions left only.
    std::fs::remove_file(dir.join("hold")).unwrap();
    std::fs::remove_file(dir.join("gos")).unwrap();
    let r = analyse(&db, &engine, &["--nodes", "2000"]);
    assert_eq!(r["resumed"], positions[2] / 2);
    assert_eq!(r["analysed"], total - (hold - 1));
    assert_eq!(r["games"], positions.len() - 2);
    assert_eq!(r["completed"], positions.len() - 2);
    let asked = std::fs::read_to_string(dir.join("gos"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(asked, total - (hold - 1));
    // What the first run found is kept as it was.
    let after = saved(&db);
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b.0, a.0);
        assert!(a.2.starts_with(&b.2), "game {}", a.0);
    }
    for (i, &n) in positions.iter().enumerate() {
        check_game(&db, i + 1, n, "nodes 2000", Some(2000));
    }
}

#[test]
fn gpsusi_analyses_with_byoyomi() {
    if !installed("gpsusi") {
        return;
    }
    let (dir, positions) = database("analyse-gpsusi", 2, 9);
    let db = dir.join("db");
    let last = positions.len();
    // Its book answers without an evaluation: BookDepth 0 turns it off.
    let r = analyse(
        &db,
        "gpsusi",
        &[
            "--byoyomi",
            "200",
            "--option",
            "BookDepth=0",
            "--max-plies",
            "20",
        ],
    );
    let short: Vec<usize> = positions
        .iter()
        .enumerate()
        .filter(|(_, n)| **n - 1 <= 20)
        .map(|(i, _)| i + 1)
        .collect();
    assert!(short.contains(&last));
    assert_eq!(r["games"], short.len());
    assert_eq!(r["failures"], 0);
    for &id in &short {
        check_game(&db, id, positions[id - 1], "byoyomi 200", None);
    }
    // A mate is decisive for sente (gpsusi writes it as a huge value).
    let mate = shown(&db, last);
    for e in mate["evals"].as_array().unwrap() {
        assert!(
            e["mate_for"] == "sente" || e["value"].as_i64().is_some_and(|v| v >= 30_000),
            "{e}"
        );
    }
}

/// A fake engine (a bash script) that evaluates every position 7 for the side to move and
/// resigns, and
/// dies whenever it is asked about the position after the third move of a game.
fn dying_engine(dir: &Path) -> String {
    let script = r#"#!/bin/bash
third='^position startpos moves [^ ]+ [^ ]+ [^ ]+$'
while IFS= read -r line; do
  case "$line" in
    usi) echo "id name Dying Fake 1.0"; echo "usiok" ;;
    isready) echo "readyok" ;;
    position*) pos="$line" ;;
    go*) if [[ $pos =~ $third ]]; then echo "no third move for me" >&2; exit 3; fi
         echo "info depth 1 score cp 7 nodes 1"
         echo "bestmove resign" ;;
    quit) exit 0 ;;
  esac
done
"#;
    let path = dir.join("dying.sh");
    std::fs::write(&path, script).unwrap();
    format!("bash {}", path.display())
}

#[test]
fn an_engine_that_dies_is_reported_restarted_and_the_run_goes_on() {
    let (dir, positions) = database("analyse-dying", 3, 13);
    let db = dir.join("db");
    let engine = dying_engine(dir.path());
    let out = Kifudex::new()
        .db(&db)
        .args(["analyse", "--json", "--engine", &engine, "--depth", "1"])
        .output()
        .success();
    let r: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let games = positions.len() - 1; // the mate record starts from its own position
    assert_eq!(r["analysis"]["engine"], "Dying Fake 1.0");
    assert_eq!(r["analysed"], positions.iter().sum::<usize>());
    assert_eq!(r["completed"], positions.len());
    // Each game's third position: asked, restarted, asked again, kept without an answer.
    assert_eq!(r["failures"], 2 * games);
    assert_eq!(r["unanswered"], games);
    assert_eq!(r["left"], 0);
    let warned = out
        .stderr
        .lines()
        .filter(|l| {
            l.starts_with("kifudex: engine: game ")
                && l.contains(", position 3: the engine stopped")
                && l.contains("no third move for me")
                && l.ends_with("; restarted")
        })
        .count();
    assert_eq!(warned, 2 * games, "{}", out.stderr);
    for (i, &n) in positions[..games].iter().enumerate() {
        let g = shown(&db, i + 1);
        let plies: Vec<u64> = g["evals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                // USI's score is the side to move's: sente moves at the even plies.
                let ply = e["ply"].as_u64().unwrap();
                assert_eq!(e["value"], if ply % 2 == 0 { 7 } else { -7 });
                assert_eq!(e["best"], "resign");
                ply
            })
            .collect();
        let want: Vec<u64> = (0..n as u64).filter(|&p| p != 3).collect();
        assert_eq!(plies, want, "game {}", i + 1);
    }
}

#[test]
fn bad_engines_and_options_are_clear_errors() {
    let (dir, _) = database("analyse-errors", 1, 17);
    let db = dir.join("db");
    let run = |args: &[&str]| Kifudex::new().db(&db).args(args).output();
    let out = run(&["analyse", "--engine", "/nonexistent/engine", "--depth", "1"]);
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr
            .contains("cannot start the engine '/nonexistent/engine'"),
        "{}",
        out.stderr
    );
    let out = run(&[
        "analyse", "--engine", "x", "--depth", "1", "--option", "Threads",
    ]);
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr
            .contains("--option \"Threads\": give NAME=VALUE (an empty VALUE for a button)"),
        "{}",
        out.stderr
    );
    // A limit is required, and only one.
    assert_eq!(run(&["analyse", "--engine", "x"]).code(), 2);
    assert_eq!(
        run(&["analyse", "--engine", "x", "--depth", "1", "--nodes", "9"]).code(),
        2
    );
    let out = run(&["analyse", "--engine", "\"open", "--depth", "1"]);
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr.contains("no program, or a quote left open"),
        "{}",
        out.stderr
    );
}
