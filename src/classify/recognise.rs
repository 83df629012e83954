//! The matcher: replays a main line on a [`Board`] and tries, after each ply, only the
//! patterns a move could have changed (those naming a kind of piece that moved, was taken or
//! dropped, or a name just recognised), within their windows; it stops at the last window.

use std::sync::OnceLock;

use super::board::{Board, Kinds, Squares, rotate};
use super::patterns::{Cond, DEFS, PATTERNS};
use crate::shogi::{Color, Move, PieceKind, Position};

/// A pattern ready to test for one side.
#[derive(Clone, Debug)]
enum Test {
    All(Color, Kinds, Squares),
    Any(Color, Kinds, Squares),
    None(Color, Kinds, Squares),
    Hand(Color, PieceKind),
    Had(Color, u8),
    Just(Color, u8),
    NotHad(Color, u8),
}

struct Compiled {
    def: u8,
    start: u16,
    end: u16,
    /// Per side (sente, gote): the tests, rotated for gote.
    tests: [Vec<Test>; 2],
    /// Kinds of each side (own, opponent, seen from the side) whose squares it reads.
    own: Kinds,
    opp: Kinds,
    hands: bool,
    names: bool,
}

pub(super) struct Matcher {
    patterns: Vec<Compiled>,
    /// Per side and trigger, the patterns to try: own kind k (0–13), opponent kind k (14–27),
    /// a hand changed (28), a name was recognised (29).
    triggers: [[u128; 30]; 2],
    /// Per side, piece (colour as seen from the side: own 0–13, opponent 14–27) and square,
    /// the patterns that read that square for that piece: a move tries only the patterns
    /// reading a square it changed.
    on_square: Vec<[u128; 81]>,
    /// What [`Matcher::impossible`] gives for the even start, per side (most games).
    even_impossible: [u128; 2],
    /// Patterns whose window opens at each ply (after the first).
    opening_at: Vec<u128>,
    /// Patterns whose window includes ply 1.
    from_first: u128,
    /// Per name, the patterns that make it hold.
    of_def: Vec<u128>,
    /// Per name, its ancestors (itself first).
    lineage: Vec<Vec<u8>>,
    last_ply: u16,
}

const HANDS: usize = 28;
const NAMES: usize = 29;

pub(super) fn def_index(name: &str) -> Option<usize> {
    DEFS.iter().position(|d| d.name == name)
}

fn def_of(name: &str) -> u8 {
    def_index(name).unwrap_or_else(|| panic!("classify: unknown name {name}")) as u8
}

impl Matcher {
    pub(super) fn get() -> &'static Matcher {
        static MATCHER: OnceLock<Matcher> = OnceLock::new();
        MATCHER.get_or_init(Matcher::build)
    }

    fn build() -> Matcher {
        assert!(PATTERNS.len() <= 128, "classify: at most 128 patterns");
        assert!(DEFS.len() <= 255);
        let mut patterns = Vec::new();
        let mut triggers = [[0u128; 30]; 2];
        let mut on_square = vec![[0u128; 81]; 2 * 28];
        let mut last_ply = 0;
        for (i, p) in PATTERNS.iter().enumerate() {
            let def = def_of(p.name);
            let mut c = Compiled {
                def,
                start: p.plies.0.max(1),
                end: p.plies.1,
                tests: [Vec::new(), Vec::new()],
                own: 0,
                opp: 0,
                hands: false,
                names: false,
            };
            last_ply = last_ply.max(p.plies.1);
            for side in Color::ALL {
                let turn = |s: Squares| if side == Color::White { rotate(s) } else { s };
                let me = side;
                let them = side.opponent();
                for cond in p.conds {
                    let t = match *cond {
                        Cond::Own(k, s) => Test::All(me, k, turn(s)),
                        Cond::OwnAny(k, s) => Test::Any(me, k, turn(s)),
                        Cond::OwnNone(k, s) => Test::None(me, k, turn(s)),
                        Cond::Opp(k, s) => Test::All(them, k, turn(s)),
                        Cond::OppAny(k, s) => Test::Any(them, k, turn(s)),
                        Cond::OppNone(k, s) => Test::None(them, k, turn(s)),
                        Cond::OwnHand(k) => Test::Hand(me, k),
                        Cond::OppHand(k) => Test::Hand(them, k),
                        Cond::Had(n) => Test::Had(me, def_of(n)),
                        Cond::Just(n) => Test::Just(me, def_of(n)),
                        Cond::NotHad(n) => Test::NotHad(me, def_of(n)),
                        Cond::OppHad(n) => Test::Had(them, def_of(n)),
                    };
                    c.tests[side.index()].push(t);
                }
            }
            for cond in p.conds {
                match *cond {
                    Cond::Own(k, _) | Cond::OwnAny(k, _) | Cond::OwnNone(k, _) => c.own |= k,
                    Cond::Opp(k, _) | Cond::OppAny(k, _) | Cond::OppNone(k, _) => c.opp |= k,
                    Cond::OwnHand(_) | Cond::OppHand(_) => c.hands = true,
                    Cond::Had(_) | Cond::Just(_) | Cond::NotHad(_) | Cond::OppHad(_) => {
                        c.names = true
                    }
                }
            }
            for side in Color::ALL {
                for t in &c.tests[side.index()] {
                    if let Test::All(who, kinds, squares)
                    | Test::Any(who, kinds, squares)
                    | Test::None(who, kinds, squares) = *t
                    {
                        let base = if who == side { 0 } else { 14 };
                        for k in 0..14 {
                            if kinds & (1 << k) == 0 {
                                continue;
                            }
                            let row = &mut on_square[side.index() * 28 + base + k];
                            let mut bits = squares;
                            while bits != 0 {
                                row[bits.trailing_zeros() as usize] |= 1u128 << i;
                                bits &= bits - 1;
                            }
                        }
                    }
                }
            }
            for t in &mut triggers {
                for k in 0..14 {
                    if c.own & (1 << k) != 0 {
                        t[k] |= 1u128 << i;
                    }
                    if c.opp & (1 << k) != 0 {
                        t[14 + k] |= 1u128 << i;
                    }
                }
                if c.hands {
                    t[HANDS] |= 1u128 << i;
                }
                if c.names {
                    t[NAMES] |= 1u128 << i;
                }
            }
            patterns.push(c);
        }
        let mut opening_at = vec![0u128; last_ply as usize + 2];
        let mut from_first = 0;
        let mut of_def = vec![0u128; DEFS.len()];
        for (i, c) in patterns.iter().enumerate() {
            if c.start <= 1 {
                from_first |= 1u128 << i;
            } else {
                opening_at[c.start as usize] |= 1u128 << i;
            }
            of_def[c.def as usize] |= 1u128 << i;
        }
        let lineage = DEFS
            .iter()
            .map(|d| {
                let mut line = vec![def_of(d.name)];
                let mut parent = d.parent;
                while let Some(p) = parent {
                    let i = def_of(p);
                    assert!(!line.contains(&i), "classify: a cycle through {p}");
                    assert_eq!(
                        DEFS[i as usize].kind, d.kind,
                        "classify: {p} and {} differ in kind",
                        d.name
                    );
                    line.push(i);
                    parent = DEFS[i as usize].parent;
                }
                line
            })
            .collect();
        let mut m = Matcher {
            patterns,
            triggers,
            on_square,
            even_impossible: [0; 2],
            opening_at,
            from_first,
            of_def,
            lineage,
            last_ply,
        };
        let even = Board::new(&Position::startpos());
        m.even_impossible = [
            m.impossible(&even, Color::Black),
            m.impossible(&even, Color::White),
        ];
        m
    }

    /// How deep a name is in the hierarchy (1 for a name without a parent).
    pub(super) fn depth(&self, def: usize) -> usize {
        self.lineage[def].len()
    }

    /// Each name found per side, with the ply it first held (`found[side][def]`, 0 = not).
    pub(super) fn run(
        &self,
        start: &Position,
        moves: &mut dyn Iterator<Item = Move>,
    ) -> [Vec<u16>; 2] {
        let mut found = [vec![0u16; DEFS.len()], vec![0u16; DEFS.len()]];
        let mut board = Board::new(start);
        // Patterns already decided (their name found) or never possible for a side.
        let mut done =
            if start.hash() == Position::startpos().hash() && *start == Position::startpos() {
                self.even_impossible
            } else {
                [
                    self.impossible(&board, Color::Black),
                    self.impossible(&board, Color::White),
                ]
            };
        let mut mover = start.side_to_move();
        let mut ply: u16 = 0;
        let all_patterns: u128 = if self.patterns.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.patterns.len()) - 1
        };
        for mv in moves {
            ply += 1;
            if ply > self.last_ply {
                break;
            }
            let changed = board.play(mover, mv);
            let mut candidates = [0u128; 2];
            let window = if ply == 1 {
                self.from_first
            } else {
                self.opening_at[ply as usize]
            };
            for side in Color::ALL {
                let mut set = window;
                if changed.hands {
                    set |= self.triggers[side.index()][HANDS];
                }
                // The pieces that left or entered a square, as seen from `side`.
                let rows = &self.on_square[side.index() * 28..side.index() * 28 + 28];
                let seen = |color: u8, kind: usize| {
                    if color as usize == side.index() {
                        kind
                    } else {
                        14 + kind
                    }
                };
                for &(color, kind, square) in changed.squares() {
                    set |= rows[seen(color, kind as usize)][square as usize];
                }
                candidates[side.index()] = set;
            }
            // Two rounds: a name found for one side may complete a pattern of the other.
            for _round in 0..2 {
                let mut new_names = false;
                for side in Color::ALL {
                    let s = side.index();
                    let mut set = candidates[s] & !done[s];
                    candidates[s] = 0;
                    while set != 0 {
                        let i = set.trailing_zeros() as usize;
                        set &= set - 1;
                        let p = &self.patterns[i];
                        if ply < p.start || ply > p.end || done[s] & (1u128 << i) != 0 {
                            continue;
                        }
                        if p.tests[s].iter().all(|t| holds(t, &board, &found, ply)) {
                            for &d in &self.lineage[p.def as usize] {
                                if found[s][d as usize] == 0 {
                                    found[s][d as usize] = ply;
                                    done[s] |= self.of_def[d as usize];
                                }
                            }
                            new_names = true;
                            // Later patterns reading names are tried in this ply.
                            set |= self.triggers[s][NAMES] & !done[s] & !((2u128 << i) - 1);
                        }
                    }
                }
                if !new_names {
                    break;
                }
                for (c, t) in candidates.iter_mut().zip(&self.triggers) {
                    *c = t[NAMES];
                }
            }
            if done[0] & done[1] & all_patterns == all_patterns {
                break;
            }
            mover = mover.opponent();
        }
        found
    }

    /// The patterns a side can never make honestly from this start: those asking for a
    /// piece kind the side (or its opponent) has neither on the board nor in hand (the 上手's
    /// missing rook in a handicap game), even if one is captured and dropped later.
    fn impossible(&self, board: &Board, side: Color) -> u128 {
        let mut have = [0 as Kinds; 2];
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let unpromoted = k.unpromoted();
                if board.of(c, super::board::kind(k)) != 0
                    || (k.index() < 7 && board.in_hand(c, k) > 0)
                {
                    have[c.index()] |= super::board::kind(k) | super::board::kind(unpromoted);
                }
            }
        }
        let mut out = 0u128;
        for (i, p) in self.patterns.iter().enumerate() {
            let bad = p.tests[side.index()].iter().any(|t| match *t {
                Test::All(c, k, _) | Test::Any(c, k, _) => have[c.index()] & k == 0,
                Test::Hand(c, k) => have[c.index()] & super::board::kind(k) == 0,
                _ => false,
            });
            if bad {
                out |= 1u128 << i;
            }
        }
        out
    }
}

#[inline]
fn holds(t: &Test, board: &Board, found: &[Vec<u16>; 2], ply: u16) -> bool {
    match *t {
        Test::All(c, k, s) => board.of(c, k) & s == s,
        Test::Any(c, k, s) => board.of(c, k) & s != 0,
        Test::None(c, k, s) => board.of(c, k) & s == 0,
        Test::Hand(c, k) => board.in_hand(c, k) > 0,
        Test::Had(c, d) => found[c.index()][d as usize] != 0,
        Test::Just(c, d) => found[c.index()][d as usize] == ply,
        Test::NotHad(c, d) => found[c.index()][d as usize] == 0,
    }
}
