//! The matcher: replays a main line on a [`Board`] and tries, after each ply, only the
//! patterns a move could have changed (those naming a kind of piece that moved, was taken or
//! dropped, or a name just recognised), within their windows; it stops at the last window.

use std::sync::OnceLock;

use super::board::{Board, Kinds, Squares, kind, rotate, slot};
use super::patterns::{Cond, DEFS, PATTERNS};
use kifudex_shogi::{Color, Move, PieceKind, Position};

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

/// A test on squares as one comparison: `(pieces & squares == want) != negate` (all of the
/// squares: want = squares; none: want = 0; any: want = 0, negated).
#[derive(Clone, Copy, Debug)]
struct Mask {
    color: Color,
    kinds: Kinds,
    /// The board's slot of the colour and the one kind in `kinds`, or `MANY`.
    slot: u8,
    squares: Squares,
    want: Squares,
    negate: bool,
}

impl Mask {
    #[inline]
    fn holds(&self, board: &Board) -> bool {
        let pieces = if self.slot == MANY {
            board.of(self.color, self.kinds)
        } else {
            board.of_slot(self.slot)
        };
        (pieces & self.squares == self.want) != self.negate
    }
}

const MANY: u8 = u8::MAX;

/// The board's slot of `color` and the one kind in `kinds`, or [`MANY`].
fn one_slot(color: Color, kinds: Kinds) -> u8 {
    match PieceKind::from_index(kinds.trailing_zeros() as usize) {
        Some(k) if kinds.count_ones() == 1 => slot(color, k),
        _ => MANY,
    }
}

struct Compiled {
    def: u8,
    start: u16,
    end: u16,
    /// Per side (sente, gote): the tests, rotated for gote.
    tests: [Vec<Test>; 2],
    /// Per side, the tests on squares other than those of the side's own king (which
    /// [`Matcher::king_ok`] answered already), each one mask comparison.
    masks: [Vec<Mask>; 2],
    /// Per side, the tests of hands and names.
    rest: [Vec<Test>; 2],
    /// Whether it reads a hand.
    hands: bool,
}

pub(super) struct Matcher {
    patterns: Vec<Compiled>,
    /// Per side, the patterns to try when a hand changed (a capture or a drop).
    on_hands: [Set; 2],
    /// Per name, the patterns to try when a side finds it: its own that ask for it (`Had`,
    /// `Just`; index 0), the opponent's that ask for it (`OppHad`; index 1).
    on_name: [Vec<Set>; 2],
    /// Per piece (its board slot, 0–27, or `EMPTY`), square and side, the patterns of the
    /// side that a piece entering that square may complete (it stands in one of their `All`
    /// or `Any` sets): a pattern can start to hold only when one of its tests starts to hold,
    /// so a move tries only the patterns its changes may have completed. Both sides' sets
    /// are read at once.
    on_enter: Triggers,
    /// The same for a piece leaving the square (it stands in one of their `None` sets).
    on_leave: Triggers,
    /// What [`Matcher::impossible`] gives for the even start, per side (most games).
    even_impossible: [Set; 2],
    /// What [`Matcher::at_start`] gives for the even start, per side.
    even_at_start: [Set; 2],
    /// The even start's board.
    even_board: Board,
    /// Patterns whose window opens at each ply (after the first).
    opening_at: Vec<Set>,
    /// Patterns whose window holds each ply.
    active: Vec<Set>,
    /// Patterns whose window includes ply 1.
    from_first: Set,
    /// Per name, the patterns that make it hold.
    of_def: Vec<Set>,
    /// Per name, its ancestors (itself first).
    lineage: Vec<Vec<u8>>,
    last_ply: u16,
    /// Per side and square of its king, the patterns whose tests of the side's own king
    /// hold with the king there (all the patterns at index 81, for a side without exactly
    /// one king): most castles name the king's square, so a move elsewhere tries few.
    king_ok: [[Set; 82]; 2],
}

/// Per piece (slot, 0–28 with `EMPTY`) and square, both sides' sets of patterns, kept small:
/// a byte per piece and square names one of the few distinct pairs of sets. The full table
/// (75 KB, mostly zeros) missed the first-level cache on about one move in five; this one
/// (under 10 KB) stays in it.
struct Triggers {
    index: Vec<[u8; 81]>,
    sets: Vec<[Set; 2]>,
}

impl Triggers {
    fn new(full: &[[[Set; 2]; 81]]) -> Triggers {
        let mut sets: Vec<[Set; 2]> = vec![[0; 2]];
        let index = full
            .iter()
            .map(|row| {
                row.map(|pair| {
                    let i = sets.iter().position(|s| *s == pair).unwrap_or_else(|| {
                        sets.push(pair);
                        sets.len() - 1
                    });
                    u8::try_from(i).expect("classify: at most 256 distinct trigger sets")
                })
            })
            .collect();
        Triggers { index, sets }
    }

    #[inline]
    fn get(&self, (slot, square): (u8, u8)) -> &[Set; 2] {
        &self.sets[self.index[slot as usize][square as usize] as usize]
    }
}

/// A set of patterns, bit `i` for `PATTERNS[i]`. 64 bits while there are at most 64
/// patterns (the matcher's inner loop is twice as quick as with 128): make it `u128` when
/// more are written (the build asserts it).
type Set = u64;
const ONE: Set = 1;

/// The most names the definitions may hold (the size of [`Found`]).
pub(super) const MAX_DEFS: usize = 128;

/// Per side and name, the ply it first held (0: not yet).
pub(super) type Found = [[u16; MAX_DEFS]; 2];

/// The names one side was found with, in the order they were found.
pub(super) struct Names {
    defs: [u8; MAX_DEFS],
    len: usize,
}

impl Names {
    fn push(&mut self, def: u8) {
        self.defs[self.len] = def;
        self.len += 1;
    }

    pub(super) fn as_slice(&self) -> &[u8] {
        &self.defs[..self.len]
    }
}

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
        assert!(
            (1..=Set::BITS as usize).contains(&PATTERNS.len()),
            "classify: at most {} patterns (make `Set` wider)",
            Set::BITS
        );
        assert!(DEFS.len() <= MAX_DEFS, "classify: at most {MAX_DEFS} names");
        let mut patterns = Vec::new();
        let mut on_hands = [0; 2];
        let mut on_name = [vec![0; DEFS.len()], vec![0; DEFS.len()]];
        // A row more for `EMPTY`, which completes nothing.
        let mut on_enter = vec![[[0; 2]; 81]; 29];
        let mut on_leave = vec![[[0; 2]; 81]; 29];
        let mut last_ply = 0;
        for (i, p) in PATTERNS.iter().enumerate() {
            let def = def_of(p.name);
            let mut c = Compiled {
                def,
                start: p.plies.0.max(1),
                end: p.plies.1,
                tests: [Vec::new(), Vec::new()],
                masks: [Vec::new(), Vec::new()],
                rest: [Vec::new(), Vec::new()],
                hands: false,
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
                    let king = |who: Color, k: Kinds| who == side && k == kind(PieceKind::King);
                    let mask = match t {
                        Test::All(who, k, s) if !king(who, k) => Some(Mask {
                            color: who,
                            kinds: k,
                            slot: one_slot(who, k),
                            squares: s,
                            want: s,
                            negate: false,
                        }),
                        Test::Any(who, k, s) if !king(who, k) => Some(Mask {
                            color: who,
                            kinds: k,
                            slot: one_slot(who, k),
                            squares: s,
                            want: 0,
                            negate: true,
                        }),
                        Test::None(who, k, s) if !king(who, k) => Some(Mask {
                            color: who,
                            kinds: k,
                            slot: one_slot(who, k),
                            squares: s,
                            want: 0,
                            negate: false,
                        }),
                        Test::All(..) | Test::Any(..) | Test::None(..) => None,
                        _ => {
                            c.rest[side.index()].push(t.clone());
                            None
                        }
                    };
                    c.masks[side.index()].extend(mask);
                    c.tests[side.index()].push(t);
                }
            }
            for cond in p.conds {
                match *cond {
                    // Squares: the trigger tables below.
                    Cond::Own(..)
                    | Cond::OwnAny(..)
                    | Cond::OwnNone(..)
                    | Cond::Opp(..)
                    | Cond::OppAny(..)
                    | Cond::OppNone(..) => {}
                    Cond::OwnHand(_) | Cond::OppHand(_) => c.hands = true,
                    // A name found may complete a pattern that asks for it (not one that
                    // asks for its absence).
                    Cond::Had(n) | Cond::Just(n) => on_name[0][def_of(n) as usize] |= ONE << i,
                    Cond::OppHad(n) => on_name[1][def_of(n) as usize] |= ONE << i,
                    Cond::NotHad(_) => {}
                }
            }
            for side in Color::ALL {
                for t in &c.tests[side.index()] {
                    let (table, who, kinds, squares) = match *t {
                        Test::All(who, kinds, squares) | Test::Any(who, kinds, squares) => {
                            (&mut on_enter, who, kinds, squares)
                        }
                        Test::None(who, kinds, squares) => (&mut on_leave, who, kinds, squares),
                        _ => continue,
                    };
                    {
                        for k in 0..14 {
                            if kinds & (1 << k) == 0 {
                                continue;
                            }
                            let row = &mut table[who.index() * 14 + k];
                            let mut bits = squares;
                            while bits != 0 {
                                row[bits.trailing_zeros() as usize][side.index()] |= ONE << i;
                                bits &= bits - 1;
                            }
                        }
                    }
                }
            }
            if c.hands {
                for h in &mut on_hands {
                    *h |= ONE << i;
                }
            }
            patterns.push(c);
        }
        let mut opening_at = vec![0; last_ply as usize + 2];
        let mut from_first = 0;
        let mut of_def = vec![0; DEFS.len()];
        let mut active = vec![0; last_ply as usize + 2];
        for (i, c) in patterns.iter().enumerate() {
            for a in &mut active[c.start as usize..=c.end as usize] {
                *a |= ONE << i;
            }
            if c.start <= 1 {
                from_first |= ONE << i;
            } else {
                opening_at[c.start as usize] |= ONE << i;
            }
            of_def[c.def as usize] |= ONE << i;
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
        let king_ok = Color::ALL.map(|side| {
            let mut row = [0; 82];
            for (square, ok) in row.iter_mut().enumerate() {
                for (i, c) in patterns.iter().enumerate() {
                    let holds = square == 81
                        || c.tests[side.index()].iter().all(|t| match *t {
                            Test::All(who, k, s) if who == side && k == kind(PieceKind::King) => {
                                s & !(1u128 << square) == 0
                            }
                            Test::Any(who, k, s) if who == side && k == kind(PieceKind::King) => {
                                s & (1u128 << square) != 0
                            }
                            Test::None(who, k, s) if who == side && k == kind(PieceKind::King) => {
                                s & (1u128 << square) == 0
                            }
                            _ => true,
                        });
                    if holds {
                        *ok |= ONE << i;
                    }
                }
            }
            row
        });
        let mut m = Matcher {
            patterns,
            on_hands,
            on_name,
            on_enter: Triggers::new(&on_enter),
            on_leave: Triggers::new(&on_leave),
            even_impossible: [0; 2],
            even_at_start: [0; 2],
            even_board: Board::new(&Position::startpos()),
            opening_at,
            active,
            from_first,
            of_def,
            lineage,
            last_ply,
            king_ok,
        };
        let even = Board::new(&Position::startpos());
        m.even_impossible = [
            m.impossible(&even, Color::Black),
            m.impossible(&even, Color::White),
        ];
        m.even_at_start = [
            m.at_start(&even, Color::Black),
            m.at_start(&even, Color::White),
        ];
        m
    }

    /// The patterns whose window includes ply 1 that already hold on the start board, before
    /// any name is found. Only they, and those the first move may have completed (its
    /// triggers), can hold after it: a pattern starts to hold only when one of its tests
    /// does, and every test that can start to hold has a trigger.
    fn at_start(&self, board: &Board, side: Color) -> Set {
        let none = [[0u16; MAX_DEFS]; 2];
        let mut out: Set = 0;
        let mut set = self.from_first;
        while set != 0 {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            // No ply is u16::MAX: no name was found `Just` now.
            if self.patterns[i].tests[side.index()]
                .iter()
                .all(|t| holds(t, board, &none, u16::MAX))
            {
                out |= ONE << i;
            }
        }
        out
    }

    /// Whether a name below `def` was found for the side at the same ply (`found`: the
    /// side's plies by name, `names`: the names it was found with): it is implied by that
    /// name.
    pub(super) fn implied(&self, found: &[u16; MAX_DEFS], names: &[u8], def: u8) -> bool {
        let ply = found[def as usize];
        ply != 0
            && names.iter().any(|&c| {
                c != def && found[c as usize] == ply && self.lineage[c as usize][1..].contains(&def)
            })
    }

    /// How deep a name is in the hierarchy (1 for a name without a parent).
    pub(super) fn depth(&self, def: usize) -> usize {
        self.lineage[def].len()
    }

    /// Each name found per side, with the ply it first held (`found[side][def]`, 0 = not).
    /// `even`: whether `start` is the even start position. Also gives the plies read: all
    /// of the line, or one past the last window when it is longer.
    pub(super) fn run(
        &self,
        start: &Position,
        even: bool,
        moves: impl Iterator<Item = Move>,
    ) -> (Found, [Names; 2], u16) {
        let mut found: Found = [[0u16; MAX_DEFS]; 2];
        let mut names = [0, 1].map(|_| Names {
            defs: [0; MAX_DEFS],
            len: 0,
        });
        let mut board = if even {
            self.even_board.clone()
        } else {
            Board::new(start)
        };
        // Patterns already decided (their name found) or never possible for a side, and
        // those of the first ply's window that hold before it.
        let (mut done, at_start) = if even {
            (self.even_impossible, self.even_at_start)
        } else {
            (
                [
                    self.impossible(&board, Color::Black),
                    self.impossible(&board, Color::White),
                ],
                [
                    self.at_start(&board, Color::Black),
                    self.at_start(&board, Color::White),
                ],
            )
        };
        let mut mover = start.side_to_move();
        let mut ply: u16 = 0;
        let all_patterns: Set = Set::MAX >> (Set::BITS as usize - self.patterns.len());
        for mv in moves {
            ply += 1;
            if ply > self.last_ply {
                break;
            }
            let changed = board.play(mover, mv);
            mover = mover.opponent();
            // Per side, where its king stands (81: not exactly one king) and the patterns
            // that may still start to hold there at this ply: when none may, for either
            // side, the ply asks nothing more (late plies with the kings out of every castle).
            let at = [board.king(Color::Black), board.king(Color::White)];
            let open = self.active[ply as usize];
            let live = [
                open & self.king_ok[0][at[0]] & !done[0],
                open & self.king_ok[1][at[1]] & !done[1],
            ];
            if live[0] | live[1] == 0 {
                continue;
            }
            // The patterns each side's changes may have completed: those whose window opens
            // now, those naming a square a piece entered or left, those reading a hand.
            let mut candidates = if ply == 1 {
                at_start
            } else {
                [self.opening_at[ply as usize]; 2]
            };
            // Without a branch on what the move was (they are mispredicted often): a move
            // without a capture leaves `EMPTY`, whose sets are empty.
            let hands = Set::from(changed.hands).wrapping_neg();
            let (entered, [left, taken]) = (changed.entered, changed.left);
            let sets = [
                self.on_enter.get(entered),
                self.on_leave.get(left),
                self.on_leave.get(taken),
            ];
            for s in 0..2 {
                candidates[s] |= (self.on_hands[s] & hands) | sets[0][s] | sets[1][s] | sets[2][s];
            }
            candidates[0] &= live[0];
            candidates[1] &= live[1];
            if candidates[0] | candidates[1] == 0 {
                continue;
            }
            // Two rounds: a name found for one side may complete a pattern of the other, or
            // one of its own tried before it in the round.
            for _round in 0..2 {
                for side in Color::ALL {
                    let s = side.index();
                    let active = live[s];
                    let mut set = candidates[s] & !done[s] & active;
                    candidates[s] = 0;
                    while set != 0 {
                        let i = set.trailing_zeros() as usize;
                        set &= set - 1;
                        if done[s] & (ONE << i) != 0 {
                            continue;
                        }
                        let p = &self.patterns[i];
                        let holds_now = if at[s] < 81 {
                            p.masks[s].iter().all(|m| m.holds(&board))
                                && p.rest[s].iter().all(|t| holds(t, &board, &found, ply))
                        } else {
                            p.tests[s].iter().all(|t| holds(t, &board, &found, ply))
                        };
                        if holds_now {
                            let (mut own, mut opp) = (0, 0);
                            for &d in &self.lineage[p.def as usize] {
                                if found[s][d as usize] == 0 {
                                    found[s][d as usize] = ply;
                                    names[s].push(d);
                                    done[s] |= self.of_def[d as usize];
                                    own |= self.on_name[0][d as usize];
                                    opp |= self.on_name[1][d as usize];
                                }
                            }
                            // The side's patterns asking for these names: the later ones are
                            // tried now, the earlier ones in the next round; the opponent's in
                            // its turn of this round (sente's names) or the next (gote's).
                            set |= own & !done[s] & active & (Set::MAX << i << 1);
                            candidates[s] |= own & (ONE << i << 1).wrapping_sub(1);
                            candidates[1 - s] |= opp;
                        }
                    }
                }
                if candidates[0] | candidates[1] == 0 {
                    break;
                }
            }
            if done[0] & done[1] & all_patterns == all_patterns {
                break;
            }
        }
        (found, names, ply)
    }

    /// The patterns a side can never make honestly from this start: those asking for a
    /// piece kind the side (or its opponent) has neither on the board nor in hand (the 上手's
    /// missing rook in a handicap game), even if one is captured and dropped later.
    fn impossible(&self, board: &Board, side: Color) -> Set {
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
        let mut out: Set = 0;
        for (i, p) in self.patterns.iter().enumerate() {
            let bad = p.tests[side.index()].iter().any(|t| match *t {
                Test::All(c, k, _) | Test::Any(c, k, _) => have[c.index()] & k == 0,
                Test::Hand(c, k) => have[c.index()] & super::board::kind(k) == 0,
                _ => false,
            });
            if bad {
                out |= ONE << i;
            }
        }
        out
    }
}

#[inline]
fn holds(t: &Test, board: &Board, found: &Found, ply: u16) -> bool {
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
