//! Random queries over every construct, drawn from the positions of a generated collection,
//! run through the library and compared with the brute force of [`super::brute`].

use std::collections::{BTreeMap, BTreeSet};

use kifudex::find::{self, Control, FindOptions};
use kifudex::query::GameFilter;
use kifudex::shogi::{Color, Piece, PieceKind, Square};
use kifudex::store::Store;

use super::brute::{CASTLES, STRATEGIES, T, holds, material, text};
use super::{Game, build, side_of};
use crate::util::{Rng, TempDb};

fn pick<T: Copy>(rng: &mut Rng, list: &[T]) -> T {
    list[rng.below(list.len())]
}

/// A random condition that holds (or nearly) at `ply` of `g`, so that queries find things.
fn atom(rng: &mut Rng, g: &Game, ply: usize) -> T {
    let pos = &g.positions[ply];
    let occupied: Vec<(Square, Piece)> = Square::all()
        .filter_map(|s| pos.piece_at(s).map(|p| (s, p)))
        .collect();
    let (sq, p) = pick(rng, &occupied);
    let random_square = |rng: &mut Rng| Square::from_index(rng.below(81)).unwrap();
    match rng.below(13) {
        0 | 1 => {
            let mut squares = vec![sq];
            for _ in 0..rng.below(3) {
                let s = random_square(rng);
                if !squares.contains(&s) {
                    squares.push(s);
                }
            }
            T::On {
                side: (rng.below(4) != 0).then_some(p.color),
                kind: (rng.below(6) != 0).then_some(p.kind),
                squares,
            }
        }
        2 => {
            let empty: Vec<Square> = Square::all()
                .filter(|&s| pos.piece_at(s).is_none())
                .collect();
            T::Empty(vec![pick(rng, &empty), random_square(rng)])
        }
        3 => T::InFile(p.color, p.kind, sq.file()),
        4 => T::InCamp {
            side: p.color,
            kind: p.kind,
            enemy: rng.below(2) == 0,
        },
        5 => {
            let c = side_of(rng);
            let k = pick(rng, &PieceKind::HAND);
            let have = pos.hand(c).count(k) as usize;
            T::Hand(c, k, 1 + rng.below(have.max(1)) as u8)
        }
        6 => {
            let op = pick(rng, &["<=", ">=", "<", ">", "="]);
            T::Ply(op, ply as u32)
        }
        7 => {
            let a = ply.saturating_sub(rng.below(20)) as u32;
            T::PlyRange(a, a + rng.below(40) as u32)
        }
        8 => T::Turn(side_of(rng)),
        9 if ply > 0 => {
            let (mv, piece, taken) = g.moves[ply - 1];
            let mut t = T::Last {
                side: None,
                kind: None,
                to: None,
                drop: false,
                promote: false,
                capture: false,
                check: false,
            };
            if let T::Last {
                side,
                kind,
                to,
                drop,
                promote,
                capture,
                check,
            } = &mut t
            {
                for _ in 0..1 + rng.below(3) {
                    match rng.below(7) {
                        0 => *side = Some(piece.color),
                        1 => *kind = Some(piece.kind),
                        2 => *to = Some(mv.to()),
                        3 => *drop = mv.is_drop(),
                        4 => *promote = mv.is_promotion(),
                        5 => *capture = taken.is_some(),
                        _ => *check = pos.in_check(),
                    }
                }
                if !*drop
                    && !*promote
                    && !*capture
                    && !*check
                    && side.is_none()
                    && kind.is_none()
                    && to.is_none()
                {
                    *to = Some(mv.to());
                }
            }
            t
        }
        10 => {
            let c = side_of(rng);
            let d = material(pos, c) - material(pos, c.opponent());
            T::Advantage(c, d - rng.below(3) as i64)
        }
        11 => {
            let n = (1..=9)
                .filter(|&r| pos.piece_at(Square::new(sq.file(), r).unwrap()) == Some(p))
                .count() as u32;
            T::Count(p.color, p.kind, sq.file(), n.max(1))
        }
        _ => {
            if rng.below(2) == 0 {
                T::Castle(side_of(rng), pick(rng, CASTLES).0)
            } else {
                T::Strategy(side_of(rng), pick(rng, STRATEGIES))
            }
        }
    }
}

fn condition(rng: &mut Rng, g: &Game, ply: usize, depth: usize) -> T {
    if depth == 0 || rng.below(3) == 0 {
        return atom(rng, g, ply);
    }
    match rng.below(5) {
        0 => T::Not(Box::new(condition(rng, g, ply, depth - 1))),
        1 => T::Or(
            (0..2 + rng.below(2))
                .map(|_| condition(rng, g, ply, depth - 1))
                .collect(),
        ),
        _ => T::And(
            (0..2 + rng.below(2))
                .map(|_| condition(rng, g, ply, depth - 1))
                .collect(),
        ),
    }
}

/// Per game, the plies at which the brute force finds `t` holds.
fn brute(t: &T, games: &[Game]) -> BTreeMap<i64, BTreeSet<u32>> {
    let mut out = BTreeMap::new();
    for g in games {
        let plies: BTreeSet<u32> = (0..g.positions.len())
            .filter(|&p| holds(t, g, p))
            .map(|p| p as u32)
            .collect();
        if !plies.is_empty() {
            out.insert(g.id, plies);
        }
    }
    out
}

fn everything(limit: usize, all: bool) -> FindOptions {
    FindOptions { all, limit }
}

#[test]
fn random_queries_agree_with_a_brute_force_replay() {
    let dir = TempDb::new("find-random");
    let (db, games) = build(&dir, 300);
    let store = Store::open_read_only(&db).unwrap();
    let mut rng = Rng::new(20260509);
    let mut found_some = 0;
    for n in 0..50 {
        // Conditions drawn from one position, so that they often hold together.
        let g = &games[rng.below(games.len())];
        let ply = rng.below(g.positions.len());
        let t = condition(&mut rng, g, ply, 2);
        let query = text(&t, &mut rng);
        let parsed = find::parse(&query).unwrap_or_else(|e| panic!("query {n}: {query}: {e}"));
        let want = brute(&t, &games);
        let got = find::find(
            &store,
            &parsed,
            &GameFilter::default(),
            &everything(100_000, true),
            &Control::default(),
        )
        .unwrap();
        let got_plies: BTreeMap<i64, BTreeSet<u32>> = got
            .rows
            .iter()
            .map(|r| {
                let plies = r
                    .matches
                    .as_ref()
                    .unwrap()
                    .iter()
                    .flat_map(|&[a, b]| a..=b)
                    .collect();
                (r.game.id, plies)
            })
            .collect();
        assert_eq!(got_plies, want, "query {n}: {query}");
        assert_eq!(got.games as usize, want.len(), "query {n}: {query}");
        let positions: usize = want.values().map(BTreeSet::len).sum();
        assert_eq!(got.positions as usize, positions, "query {n}: {query}");
        // The first ply of each game, and the limit: the first games by id.
        let first = find::find(
            &store,
            &parsed,
            &GameFilter::default(),
            &everything(5, false),
            &Control::default(),
        )
        .unwrap();
        let want_first: Vec<(i64, u32)> = want
            .iter()
            .take(5)
            .map(|(id, p)| (*id, *p.first().unwrap()))
            .collect();
        let got_first: Vec<(i64, u32)> = first.rows.iter().map(|r| (r.game.id, r.ply)).collect();
        assert_eq!(got_first, want_first, "query {n}: {query} (first plies)");
        assert_eq!(first.games as usize, want.len(), "query {n}: {query}");
        found_some += usize::from(!want.is_empty());
    }
    // The queries are drawn so that most of them find something.
    assert!(
        found_some >= 30,
        "only {found_some} of 50 queries found a game"
    );
}

/// A filter narrows the scan; a strategy narrows it to the games recognised with it.
#[test]
fn the_filter_and_recognised_names_narrow_the_games() {
    let dir = TempDb::new("find-filter");
    let (db, games) = build(&dir, 120);
    let store = Store::open_read_only(&db).unwrap();
    let pawn = T::Hand(Color::Black, PieceKind::Pawn, 1);
    let want = brute(&pawn, &games);
    let filter = GameFilter {
        min_plies: Some(100),
        ..GameFilter::default()
    };
    let long: BTreeSet<i64> = games
        .iter()
        .filter(|g| g.positions.len() > 100)
        .map(|g| g.id)
        .collect();
    let got = find::find(
        &store,
        &find::parse("▲歩 in hand").unwrap(),
        &filter,
        &everything(1000, false),
        &Control::default(),
    )
    .unwrap();
    let got: BTreeSet<i64> = got.rows.iter().map(|r| r.game.id).collect();
    let want: BTreeSet<i64> = want
        .keys()
        .copied()
        .filter(|id| long.contains(id))
        .collect();
    assert_eq!(got, want);
    assert!(!want.is_empty());
    for name in ["四間飛車", "振り飛車", "矢倉"] {
        let t = T::And(vec![T::Strategy(Color::White, name), T::Ply("<=", 40)]);
        let q = find::parse(&format!("△{name} and ply <= 40")).unwrap();
        let got = find::find(
            &store,
            &q,
            &GameFilter::default(),
            &everything(1000, true),
            &Control::default(),
        )
        .unwrap();
        assert_eq!(got.games as usize, brute(&t, &games).len(), "{name}");
    }
}

/// Stopped before it starts, a scan reads nothing and says so.
#[test]
fn a_stopped_scan_says_so() {
    let dir = TempDb::new("find-stop");
    let (db, _) = build(&dir, 10);
    let store = Store::open_read_only(&db).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let control = Control {
        stop: Some(&stop),
        ..Control::default()
    };
    let got = find::find(
        &store,
        &find::parse("ply >= 0").unwrap(),
        &GameFilter::default(),
        &everything(10, false),
        &control,
    )
    .unwrap();
    assert!(got.outcome.stopped);
    assert_eq!((got.games, got.outcome.scanned), (0, 0));
}
