//! The USI engine driver. Fake engines (bash scripts written here) crash, hang and print
//! garbage, to show that the driver reports each as a typed error, never panics, and goes on
//! after a restart; the real engines (Debian's fairy-stockfish and gpsusi, installed by
//! scripts/install_engines.sh; skipped when missing) analyse games with every best move
//! legal and find known mates. Deadlines are only ever reached by an engine that never
//! answers: no test depends on how fast anything runs.

use std::path::Path;
use std::time::Duration;

use kifudex::evals::engine::{
    Analysis, BestMove, Deadlines, Engine, EngineCommand, EngineError, Limit,
};
use kifudex::evals::{DECISIVE, Score};
use kifudex::notation::read_bytes;
use kifudex::shogi::{Color, Move, Position};

use crate::util::{TempDb, usi_move};

/// A fake engine: `usi` lists two options (and writes each `setoption` it gets to the file
/// `options` beside it), `isready` answers `readyok`, and `go` runs `on_go`, in which `$pos`
/// is the last `position` line and `$here` the script's directory.
fn fake(dir: &Path, on_go: &str) -> EngineCommand {
    let script = format!(
        r#"#!/bin/bash
here="$(dirname "$0")"
pos=""
while IFS= read -r line; do
  case "$line" in
    usi) echo "id name Fake Engine 1.0"
         echo "option name Depth type spin default 3 min 1 max 9"
         echo "option name Style type string default normal"
         echo "usiok" ;;
    isready) echo "readyok" ;;
    setoption*) echo "$line" >> "$here/options" ;;
    position*) pos="$line" ;;
    go*)
{on_go}
      ;;
    quit) exit 0 ;;
  esac
done
"#
    );
    let path = dir.join("engine.sh");
    std::fs::write(&path, script).unwrap();
    EngineCommand::new("bash", [path.to_str().unwrap()])
}

/// Deadlines for a fake that will never answer: short, since nothing will come.
fn short() -> Deadlines {
    Deadlines {
        start: Duration::from_secs(2),
        search: Duration::from_secs(2),
    }
}

fn start(command: EngineCommand) -> Engine {
    Engine::start(command, &[], Deadlines::default()).expect("the engine starts")
}

fn moves(usi: &[&str]) -> Vec<Move> {
    usi.iter().map(|m| usi_move(m)).collect()
}

#[test]
fn scores_turn_to_sente_and_garbage_is_set_aside() {
    let dir = TempDb::new("engine-garbage");
    let engine = fake(
        &dir,
        r#"      case "$pos" in
        *"moves 7g7f") echo "info depth 2 seldepth 2 score cp 120 nodes 10 pv 3c3d 2g2f"
                       echo "bestmove 3c3d" ;;
        *"moves 7g7f 3c3d") echo "info depth 9 score mate -5 nodes 99 pv 2g2f"
                            echo "bestmove resign" ;;
        *"moves 7g7f 3c3d 2g2f") echo "bestmove win" ;;
        *) echo "info string hello"
           echo "this is no usi at all"
           echo "info depth x score cp 5"
           echo "info depth 3 seldepth 5 score cp 20 nodes 100 pv 2g2f 8c8d"
           echo "info depth 4 seldepth 6 multipv 2 score cp -900 nodes 150 pv 9g9f"
           echo "info depth 5 seldepth 7 score cp 35 upperbound nodes 200 pv 2g2f 8c8d 2f2e 9z9z 1a1b"
           printf 'bestmove 2g2f ponder 8c8d\r\n' ;;
      esac"#,
    );
    let mut e = start(engine);
    assert_eq!(e.name(), Some("Fake Engine 1.0"));
    assert_eq!(e.option_names(), ["Depth", "Style"]);
    e.new_game().unwrap();
    let start = Position::startpos();
    let a = e.analyse(&start, &[], Limit::Nodes(1000)).unwrap();
    assert_eq!(
        a,
        Analysis {
            score: Some(Score::Value(35)),
            best: BestMove::Move(usi_move("2g2f")),
            depth: Some(5),
            seldepth: Some(7),
            nodes: Some(200),
            // Cut at the first move that cannot be read.
            pv: moves(&["2g2f", "8c8d", "2f2e"]),
            unread: vec![
                "this is no usi at all".to_string(),
                "info depth x score cp 5".to_string()
            ],
        }
    );
    // Gote to move: +120 for gote is -120 for sente.
    let a = e
        .analyse(&start, &moves(&["7g7f"]), Limit::Depth(2))
        .unwrap();
    assert_eq!(a.score, Some(Score::Value(-120)));
    assert_eq!(a.best, BestMove::Move(usi_move("3c3d")));
    assert_eq!(a.pv, moves(&["3c3d", "2g2f"]));
    // Sente to move and mated in 5: gote mates.
    let a = e
        .analyse(&start, &moves(&["7g7f", "3c3d"]), Limit::Byoyomi(100))
        .unwrap();
    assert_eq!(
        a.score,
        Some(Score::Mate {
            winner: Color::White,
            plies: Some(5)
        })
    );
    assert_eq!(a.best, BestMove::Resign);
    let a = e
        .analyse(
            &start,
            &moves(&["7g7f", "3c3d", "2g2f"]),
            Limit::Movetime(100),
        )
        .unwrap();
    assert_eq!((a.score, a.best), (None, BestMove::Win));
    e.quit();
}

#[test]
fn options_are_sent_and_unknown_ones_refused() {
    let dir = TempDb::new("engine-options");
    let command = fake(&dir, r#"      echo "bestmove 7g7f""#);
    let options = [
        ("Depth".to_string(), "5".to_string()),
        ("USI_Hash".to_string(), "16".to_string()),
    ];
    let e = Engine::start(command.clone(), &options, Deadlines::default()).unwrap();
    e.quit();
    let sent = std::fs::read_to_string(dir.join("options")).unwrap();
    assert_eq!(
        sent,
        "setoption name Depth value 5\nsetoption name USI_Hash value 16\n"
    );
    let err = Engine::start(
        command,
        &[("Hash".into(), "64".into())],
        Deadlines::default(),
    )
    .err()
    .expect("an unknown option");
    assert_eq!(
        err.to_string(),
        "the engine has no option 'Hash' (it has: Depth, Style)"
    );
}

#[test]
fn a_crash_is_reported_with_what_the_engine_said_and_a_restart_goes_on() {
    let dir = TempDb::new("engine-crash");
    // Crashes on its first search, works after that.
    let engine = fake(
        &dir,
        r#"      if [ ! -e "$here/crashed" ]; then
        touch "$here/crashed"
        echo "info depth 1 score cp 1 pv 7g7f"
        echo "fatal: search exploded" >&2
        exit 3
      fi
      echo "info depth 1 score cp 7 pv 7g7f"
      echo "bestmove 7g7f""#,
    );
    let mut e = start(engine);
    let start = Position::startpos();
    let err = e.analyse(&start, &[], Limit::Nodes(10)).unwrap_err();
    assert!(
        matches!(&err, EngineError::Exited { status, stderr, .. }
            if status.contains('3') && stderr.contains("fatal: search exploded")),
        "{err:?}"
    );
    assert!(err.to_string().contains("fatal: search exploded"), "{err}");
    assert!(!e.is_running());
    assert!(matches!(
        e.analyse(&start, &[], Limit::Nodes(10)),
        Err(EngineError::NotRunning)
    ));
    e.restart().unwrap();
    assert_eq!(e.restarts(), 1);
    let a = e.analyse(&start, &[], Limit::Nodes(10)).unwrap();
    assert_eq!(a.score, Some(Score::Value(7)));
}

#[test]
fn a_hang_past_the_deadline_is_killed_and_a_restart_goes_on() {
    let dir = TempDb::new("engine-hang");
    // Never answers its first search (it waits for input that never comes).
    let engine = fake(
        &dir,
        r#"      if [ ! -e "$here/hung" ]; then
        touch "$here/hung"
        read -r never
      fi
      echo "bestmove 7g7f""#,
    );
    let mut e = Engine::start(engine, &[], short()).unwrap();
    let start = Position::startpos();
    let err = e.analyse(&start, &[], Limit::Nodes(10)).unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "the engine gave no answer within 2 s while searching; it was killed"
    );
    e.restart().unwrap();
    let a = e.analyse(&start, &[], Limit::Nodes(10)).unwrap();
    assert_eq!(a.best, BestMove::Move(usi_move("7g7f")));
}

#[test]
fn illegal_and_unreadable_best_moves_are_errors_and_the_engine_goes_on() {
    let dir = TempDb::new("engine-bad-moves");
    let engine = fake(
        &dir,
        r#"      case "$pos" in
        *"moves 7g7f") echo "bestmove xyz" ;;
        *"moves 7g7f 3c3d") echo "bestmove" ;;
        *"moves 2g2f") echo "bestmove 3c3d" ;;
        *) echo "bestmove 5e5d" ;;
      esac"#,
    );
    let mut e = start(engine);
    let start = Position::startpos();
    let err = e.analyse(&start, &[], Limit::Nodes(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the engine's best move '5e5d' is not legal (position lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1)"
    );
    let err = e
        .analyse(&start, &moves(&["7g7f"]), Limit::Nodes(1))
        .unwrap_err();
    assert!(
        matches!(&err, EngineError::BadBestMove { text, .. } if text == "xyz"),
        "{err:?}"
    );
    let err = e
        .analyse(&start, &moves(&["7g7f", "3c3d"]), Limit::Nodes(1))
        .unwrap_err();
    assert!(
        matches!(&err, EngineError::BadBestMove { text, .. } if text.is_empty()),
        "{err:?}"
    );
    // The engine still answers: the errors were its moves, not its process.
    assert!(e.is_running());
    let a = e
        .analyse(&start, &moves(&["2g2f"]), Limit::Nodes(1))
        .unwrap();
    assert_eq!(a.best, BestMove::Move(usi_move("3c3d")));
    // Moves that cannot be played are refused before the engine is asked.
    let err = e
        .analyse(&start, &moves(&["7g7f", "7g7f"]), Limit::Nodes(1))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the position to analyse cannot be reached: move 2 (7g7f) cannot be played"
    );
}

#[test]
fn floods_long_lines_and_bytes_that_are_no_text_do_not_stop_the_driver() {
    let dir = TempDb::new("engine-flood");
    let engine = fake(
        &dir,
        r#"      for i in $(seq 1 20000); do echo "info depth $i score cp $i nodes $i"; done
      head -c 1000000 /dev/zero | tr '\0' 'x'; echo
      printf 'info \xff\xfe score cp \xc3\n'
      printf 'no newline at the end, then the move\n'
      echo "bestmove 7g7f""#,
    );
    let mut e = start(engine);
    let a = e
        .analyse(&Position::startpos(), &[], Limit::Nodes(1))
        .unwrap();
    assert_eq!(a.score, Some(Score::Value(20000)));
    assert_eq!(a.nodes, Some(20000));
    assert_eq!(a.best, BestMove::Move(usi_move("7g7f")));
    assert_eq!(a.unread.len(), 3);
    // The long line is kept cut, and quoted shorter still.
    assert!(
        a.unread[0].starts_with("xxxx") && a.unread[0].len() < 400,
        "{}",
        a.unread[0]
    );
}

#[test]
fn engines_that_do_not_start_are_reported() {
    let err = Engine::start(
        EngineCommand::new("/nonexistent/engine", ["--flag"]),
        &[],
        short(),
    )
    .err()
    .expect("no such program");
    assert!(
        err.to_string()
            .starts_with("cannot start the engine '/nonexistent/engine': "),
        "{err}"
    );
    let dir = TempDb::new("engine-start");
    // Exits when spoken to.
    let path = dir.join("quits.sh");
    std::fs::write(&path, "read -r line\necho 'no engine here' >&2\nexit 1\n").unwrap();
    let err = Engine::start(
        EngineCommand::new("bash", [path.to_str().unwrap()]),
        &[],
        short(),
    )
    .err()
    .expect("it exits");
    assert!(
        matches!(&err, EngineError::Exited { doing, stderr, .. }
            if doing == "waiting for usiok" && stderr == "no engine here"),
        "{err:?}"
    );
    // Never says usiok.
    let path = dir.join("silent.sh");
    std::fs::write(
        &path,
        "while read -r line; do echo \"id name silent\"; done\n",
    )
    .unwrap();
    let err = Engine::start(
        EngineCommand::new("bash", [path.to_str().unwrap()]),
        &[],
        short(),
    )
    .err()
    .expect("it never answers");
    assert!(
        matches!(&err, EngineError::Timeout { doing, .. } if doing == "waiting for usiok"),
        "{err:?}"
    );
}

#[test]
fn command_lines_split_into_program_and_arguments() {
    let c =
        EngineCommand::from_command_line("  /opt/yo/YaneuraOu  --threads 2 'eval dir' \"a b\"c ")
            .unwrap();
    assert_eq!(c.program, "/opt/yo/YaneuraOu");
    assert_eq!(c.args, ["--threads", "2", "eval dir", "a bc"]);
    assert_eq!(c.to_string(), "/opt/yo/YaneuraOu --threads 2 eval dir a bc");
    assert_eq!(EngineCommand::from_command_line("   "), None);
    assert_eq!(EngineCommand::from_command_line("engine 'open"), None);
}

// ---- the real engines --------------------------------------------------------------------

/// The engine `name` when it is installed (on the PATH or in /usr/games, where Debian puts
/// it); otherwise the test says it is skipped.
fn installed(name: &str) -> Option<EngineCommand> {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()));
    if on_path || Path::new("/usr/games").join(name).is_file() {
        Some(EngineCommand::new(name, Vec::<String>::new()))
    } else {
        eprintln!(
            "skipped: the engine '{name}' is not installed (scripts/install_engines.sh installs it)"
        );
        None
    }
}

/// The main line of the Floodgate sample: 10 moves, 11 positions.
fn sample_game() -> (Position, Vec<Move>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/evals/floodgate.csa");
    let rec = read_bytes(&std::fs::read(path).unwrap(), None)
        .games
        .remove(0);
    let moves = rec.main.moves.iter().map(|m| m.mv).collect();
    (rec.start, moves)
}

/// Whether the side to move mates in `plies` (1 or 3) and not sooner, by trying every move:
/// a check of the mate positions below that owes nothing to an engine.
fn mates_in(pos: &Position, plies: u32) -> bool {
    fn mate_in_1(p: &Position) -> bool {
        p.legal_moves().into_iter().any(|m| {
            let mut q = p.clone();
            q.play(m).is_ok() && q.is_checkmate()
        })
    }
    fn mate_in_3(p: &Position) -> bool {
        p.legal_moves().into_iter().any(|m| {
            let mut q = p.clone();
            if q.play(m).is_err() || !q.in_check() || q.is_checkmate() {
                return false;
            }
            q.legal_moves().into_iter().all(|r| {
                let mut s = q.clone();
                s.play(r).is_ok() && mate_in_1(&s)
            })
        })
    }
    match plies {
        1 => mate_in_1(pos),
        3 => !mate_in_1(pos) && mate_in_3(pos),
        _ => unreachable!(),
    }
}

/// Sente mates in 1 (金打ち) and in 3 (a rook sacrifice, then a gold).
const MATE_IN_1: &str = "4k4/9/4G4/9/9/9/9/9/4K4 b G 1";
const MATE_IN_3: &str = "7k1/9/8R/9/9/9/9/9/4K4 b GR 1";

/// Analyses every position of the sample game; each best move and variation must be legal
/// where it is played (checked here again, apart from the driver).
fn analyse_the_game(e: &mut Engine, limit: Limit) -> Vec<Analysis> {
    let (start, moves) = sample_game();
    e.new_game().unwrap();
    let mut out = Vec::new();
    let mut pos = start.clone();
    for ply in 0..=moves.len() {
        let a = e.analyse(&start, &moves[..ply], limit).unwrap();
        match a.best {
            BestMove::Move(m) => assert!(pos.is_legal(m), "ply {ply}: {m}"),
            other => panic!("ply {ply}: {other:?}"),
        }
        let mut p = pos.clone();
        for m in &a.pv {
            assert!(p.is_legal(*m), "ply {ply}: {m} in the variation");
            p.play(*m).unwrap();
        }
        if ply < moves.len() {
            pos.play(moves[ply]).unwrap();
        }
        out.push(a);
    }
    out
}

#[test]
fn fairy_stockfish_analyses_a_game_and_finds_the_mates() {
    let Some(command) = installed("fairy-stockfish") else {
        return;
    };
    // Spoken to with `usi`, it plays shogi without being told the variant.
    let mut e = start(command);
    assert!(
        e.name().is_some_and(|n| n.starts_with("Fairy-Stockfish")),
        "{:?}",
        e.name()
    );
    let game = analyse_the_game(&mut e, Limit::Nodes(20_000));
    assert_eq!(game.len(), 11);
    for a in &game {
        assert!(
            matches!(a.score, Some(Score::Value(v)) if v.abs() < DECISIVE),
            "{a:?}"
        );
        assert!(a.nodes.is_some_and(|n| n >= 20_000) && a.depth.is_some() && !a.pv.is_empty());
        assert_eq!(
            a.pv.first().copied(),
            match a.best {
                BestMove::Move(m) => Some(m),
                _ => None,
            }
        );
    }
    for (sfen, plies, best) in [(MATE_IN_1, 1, "G*5b"), (MATE_IN_3, 3, "1c2c+")] {
        let pos = Position::from_sfen(sfen).unwrap();
        assert!(mates_in(&pos, plies), "{sfen}");
        let a = e.analyse(&pos, &[], Limit::Nodes(50_000)).unwrap();
        // USI counts mates in plies (UCI would say 2 for the mate in 3).
        let mate = |winner| {
            Some(Score::Mate {
                winner,
                plies: Some(plies),
            })
        };
        assert_eq!(a.score, mate(Color::Black), "{sfen}");
        assert_eq!(a.best, BestMove::Move(usi_move(best)), "{sfen}");
        // The same position with the colours swapped: gote mates.
        let flipped = pos.flip();
        assert_eq!(flipped.side_to_move(), Color::White);
        let a = e.analyse(&flipped, &[], Limit::Nodes(50_000)).unwrap();
        assert_eq!(a.score, mate(Color::White), "{sfen} flipped");
    }
    e.quit();
}

#[test]
fn gpsusi_analyses_with_byoyomi_finds_the_mates_and_survives_go_nodes() {
    let Some(command) = installed("gpsusi") else {
        return;
    };
    // gpsusi keeps the options it is given in a file of its own for later runs: every start
    // here sets the ones it depends on, and the last one leaves the default.
    let options = [("BookDepth".to_string(), "0".to_string())];
    let mut e = Engine::start(command.clone(), &options, Deadlines::default()).unwrap();
    assert!(
        e.option_names().iter().any(|o| o == "BookDepth"),
        "{:?}",
        e.option_names()
    );
    let game = analyse_the_game(&mut e, Limit::Byoyomi(300));
    assert!(game.iter().all(|a| a.score.is_some()), "{game:?}");
    // gpsusi gives a mate as a huge value: decisive, with the right sign.
    for sfen in [MATE_IN_1, MATE_IN_3] {
        let pos = Position::from_sfen(sfen).unwrap();
        let a = e.analyse(&pos, &[], Limit::Byoyomi(500)).unwrap();
        assert_eq!(
            a.score.and_then(Score::decisive),
            Some(Color::Black),
            "{sfen}: {a:?}"
        );
        let a = e.analyse(&pos.flip(), &[], Limit::Byoyomi(500)).unwrap();
        assert_eq!(
            a.score.and_then(Score::decisive),
            Some(Color::White),
            "{sfen}: {a:?}"
        );
    }
    // It knows no `go nodes` and dies of it: a crash like any other.
    let err = e
        .analyse(&Position::startpos(), &[], Limit::Nodes(1000))
        .unwrap_err();
    assert!(
        matches!(&err, EngineError::Exited { stderr, .. } if stderr.contains("go nodes")),
        "{err:?}"
    );
    e.restart().unwrap();
    let a = e
        .analyse(
            &Position::startpos(),
            &moves(&["7g7f"]),
            Limit::Byoyomi(300),
        )
        .unwrap();
    assert!(a.score.is_some());
    e.quit();
    // From its book (its default BookDepth) it answers without an evaluation.
    let book = [("BookDepth".to_string(), "30".to_string())];
    let mut e = Engine::start(command, &book, Deadlines::default()).unwrap();
    e.new_game().unwrap();
    let a = e
        .analyse(&Position::startpos(), &[], Limit::Byoyomi(300))
        .unwrap();
    assert_eq!(a.score, None);
    assert!(matches!(a.best, BestMove::Move(m) if Position::startpos().is_legal(m)));
    e.quit();
}
