//! Every name kifudex knows has a pair: one move sequence that must produce it (for the side
//! and at the ply given) and one near miss that must not. Strategies and castles are checked
//! on the side's items, game labels on the label. The tables are by family in the sibling
//! files; the tests here fail when a name has no pair.

use std::collections::BTreeSet;

use kifudex::classify::names::LABELS;
use kifudex::classify::{DEFS, Recognised, recognise};
use kifudex::shogi::{Color, Move, Position};

use super::{pairs_castles, pairs_labels, pairs_ranging, pairs_static};

/// A pair for a strategy or castle.
pub struct Case {
    pub name: &'static str,
    pub side: Color,
    /// The game: sente's moves only, gote waiting with its gold (4a4b, 4b4a…), or with
    /// `full` both sides' moves. `LATE ` before solo moves: 40 plies of waiting first.
    pub moves: &'static str,
    pub full: bool,
    /// The ply at which the side is first recognised with the name.
    pub ply: u32,
    /// A near miss: the name must not be recognised for the side.
    pub miss: &'static str,
}

/// Sente's moves alone (gote waits).
pub const fn s(name: &'static str, moves: &'static str, ply: u32, miss: &'static str) -> Case {
    Case {
        name,
        side: Color::Black,
        moves,
        full: false,
        ply,
        miss,
    }
}

/// Both sides' moves; the name is sente's.
pub const fn f(name: &'static str, moves: &'static str, ply: u32, miss: &'static str) -> Case {
    Case {
        name,
        side: Color::Black,
        moves,
        full: true,
        ply,
        miss,
    }
}

/// Both sides' moves; the name is gote's.
pub const fn g(name: &'static str, moves: &'static str, ply: u32, miss: &'static str) -> Case {
    Case {
        name,
        side: Color::White,
        moves,
        full: true,
        ply,
        miss,
    }
}

/// A pair for a game label: both sides' moves that must give the label, and a near miss
/// that must not.
pub struct LabelCase {
    pub label: &'static str,
    pub moves: &'static str,
    pub miss: &'static str,
}

pub const fn l(label: &'static str, moves: &'static str, miss: &'static str) -> LabelCase {
    LabelCase { label, moves, miss }
}

pub fn parse(moves: &str) -> Vec<Move> {
    moves
        .split_whitespace()
        .map(|m| Move::from_usi(m).unwrap_or_else(|_| panic!("bad USI move {m}")))
        .collect()
}

/// Sente's moves, gote waiting (its gold 4a4b, 4b4a …) between them.
pub fn solo(moves: &str) -> Vec<Move> {
    let mut out = Vec::new();
    for (i, m) in parse(moves).into_iter().enumerate() {
        if i > 0 {
            out.push(parse(if i % 2 == 1 { "4a4b" } else { "4b4a" })[0]);
        }
        out.push(m);
    }
    out
}

/// Sente waits 20 times (gold 4i4h, 4h4i …) with gote, then plays `moves`: 40 plies later.
pub fn late(moves: &str) -> Vec<Move> {
    let mut out = Vec::new();
    for i in 0..20 {
        out.extend(parse(if i % 2 == 0 { "4i4h 4a4b" } else { "4h4i 4b4a" }));
    }
    out.extend(solo(moves));
    out
}

pub fn case_moves(moves: &str, full: bool) -> Vec<Move> {
    if let Some(rest) = moves.strip_prefix("LATE ") {
        late(rest)
    } else if full {
        parse(moves)
    } else {
        solo(moves)
    }
}

/// Plays the moves from the even start, each checked legal, and recognises the game; an
/// illegal move is an error naming it.
pub fn run(moves: &[Move]) -> Result<Recognised, String> {
    let start = Position::startpos();
    let mut p = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        let v = p
            .play(m)
            .map_err(|e| format!("move {} ({}) cannot be played: {e}", i + 1, m.usi()))?;
        if let Some(first) = v.first() {
            return Err(format!(
                "move {} ({}) breaks a rule: {first:?}",
                i + 1,
                m.usi()
            ));
        }
    }
    Ok(recognise(&start, moves.iter().copied()))
}

fn names(r: &Recognised, side: Color) -> Vec<String> {
    r.side(side)
        .map(|i| format!("{}@{}", i.name, i.ply))
        .collect()
}

pub fn all_cases() -> impl Iterator<Item = &'static Case> {
    pairs_ranging::CASES
        .iter()
        .chain(pairs_static::CASES)
        .chain(pairs_castles::CASES)
}

#[test]
fn every_name_has_a_sequence_that_makes_it_and_a_near_miss_that_does_not() {
    let mut failures = Vec::new();
    for case in all_cases() {
        match run(&case_moves(case.moves, case.full)) {
            Err(e) => failures.push(format!("{}: {e}", case.name)),
            Ok(r) if r.ply(case.side, case.name) != Some(case.ply) => failures.push(format!(
                "{} ({:?}): expected at ply {}, got {:?}: {:?}",
                case.name,
                case.side,
                case.ply,
                r.ply(case.side, case.name),
                names(&r, case.side)
            )),
            Ok(_) => {}
        }
        match run(&case_moves(case.miss, case.full)) {
            Err(e) => failures.push(format!("{} (near miss): {e}", case.name)),
            Ok(r) => {
                if let Some(ply) = r.ply(case.side, case.name) {
                    failures.push(format!("{}: the near miss holds at ply {ply}", case.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_label_has_a_game_that_gets_it_and_a_near_miss_that_does_not() {
    let mut failures = Vec::new();
    for case in pairs_labels::LABEL_CASES {
        match run(&parse(case.moves)) {
            Err(e) => failures.push(format!("{}: {e}", case.label)),
            Ok(r) if r.opening != Some(case.label) => failures.push(format!(
                "{}: got {:?} ({})",
                case.label,
                r.opening,
                r.reason.map(|x| x.to_string()).unwrap_or_default()
            )),
            Ok(_) => {}
        }
        match run(&parse(case.miss)) {
            Err(e) => failures.push(format!("{} (near miss): {e}", case.label)),
            Ok(r) if r.opening == Some(case.label) => {
                failures.push(format!("{}: the near miss gets it too", case.label))
            }
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_name_and_label_has_its_pair() {
    let cased: BTreeSet<&str> = all_cases().map(|c| c.name).collect();
    let labelled: BTreeSet<&str> = pairs_labels::LABEL_CASES.iter().map(|c| c.label).collect();
    let missing: Vec<&str> = DEFS
        .iter()
        .map(|d| d.name)
        .filter(|n| !cased.contains(n))
        .chain(
            LABELS
                .iter()
                .map(|l| l.name)
                .filter(|n| !labelled.contains(n)),
        )
        .collect();
    assert!(missing.is_empty(), "names without their pair: {missing:?}");
    let unknown: Vec<&str> = cased
        .iter()
        .chain(&labelled)
        .copied()
        .filter(|n| kifudex::classify::names::about(n).is_none())
        .collect();
    assert!(unknown.is_empty(), "pairs of no known name: {unknown:?}");
    // Every name kifudex knows, each with its shape in words; the count moves only with a
    // name added (and its pair) or one removed on purpose.
    let all: Vec<&str> = kifudex::classify::canonical_names().collect();
    assert_eq!(all.len(), 251, "names known");
    for n in all {
        let about = kifudex::classify::names::about(n).unwrap_or_default();
        assert!(about.len() > 10, "{n} has no description");
    }
}

/// Each solo pattern is read for gote rotated: the same moves rotated make the same name for
/// gote, one ply later (sente waits first).
#[test]
fn gote_is_recognised_through_the_rotated_patterns() {
    let mut failures = Vec::new();
    for case in all_cases().filter(|c| !c.full && !c.moves.starts_with("LATE")) {
        // Sente's moves as gote's, sente waiting with its gold between them.
        let own = parse(case.moves);
        let mut moves = Vec::new();
        for (i, m) in own.iter().enumerate() {
            moves.push(parse(if i % 2 == 0 { "4i4h" } else { "4h4i" })[0]);
            moves.push(m.rotate());
        }
        let r = run(&moves).expect("the rotated moves are legal");
        // 居玉 is looked at once, at ply 30, whoever moved last.
        let ply = if case.name == "居玉" {
            30
        } else {
            case.ply + 1
        };
        if r.ply(Color::White, case.name) != Some(ply) {
            failures.push(format!(
                "{}: gote at {:?}, not {ply}: {:?}",
                case.name,
                r.ply(Color::White, case.name),
                names(&r, Color::White)
            ));
        }
        if case.name != "居玉" && r.has(Color::Black, case.name) {
            failures.push(format!("{}: sente has it too", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
