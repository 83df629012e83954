//! The matcher's tables, made once from the definitions: each pattern's tests for each side
//! (gote's rotated), and the lists a move, a hand, a name or a ply reads to update the
//! counts of the conditions that do not hold (see the module above).

use super::{
    ENTRIES, Found, GROUP, GROUPS, Lists, MAX_DEFS, Matcher, NAME_DID, NAME_JUST, NEVER_GAINED,
    NONE, NOW_HOLDS, Set, State, Test, WORDS, entry, hand_key, holds,
};
use crate::board::{Board, Kinds, Mailbox, Squares, kind, rotate, slot};
use crate::patterns::{Cond, DEFS, PATTERNS};
use kifudex_shogi::{Color, PieceKind, Position};

/// The square conditions a test of squares makes: a square holds one of `color`'s pieces of
/// `kinds` (`present`), or none of them; or, for a set of two or more squares any of which
/// will do, the set (a group, with its count of pieces).
#[derive(Clone, Copy, Debug)]
pub(super) enum Counted {
    Square {
        color: Color,
        kinds: Kinds,
        square: u8,
        present: bool,
    },
    Group(u16),
    Hand(usize),
    /// A name not yet found (`Had`, `Did`, `Just`): none is before the first move.
    Name,
}

/// One pattern, as the matcher reads it.
pub(super) struct Compiled {
    pub(super) def: u16,
    pub(super) start: u16,
    pub(super) end: u16,
    /// Per side (sente, gote): the tests, rotated for gote.
    pub(super) tests: [Vec<Test>; 2],
    /// Per side, the conditions counted.
    pub(super) counted: [Vec<Counted>; 2],
}

/// A set of two or more squares any of which will do, or none of which: `color`'s pieces of
/// `kinds` on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    color: Color,
    kinds: Kinds,
    squares: Squares,
    /// Whether none will do, rather than any.
    none: bool,
}

fn def_index(name: &str) -> Option<usize> {
    DEFS.iter().position(|d| d.name == name)
}

fn def_of(name: &str) -> u16 {
    def_index(name).unwrap_or_else(|| panic!("classify: unknown name {name}")) as u16
}

/// The tables' entries as they are gathered: `(key, item)` for [`Lists::new`].
#[derive(Default)]
struct Gathered {
    enter: Vec<(usize, u16)>,
    leave: Vec<(usize, u16)>,
    groups: Vec<Group>,
    group_entries: Vec<(usize, u16)>,
    hands: Vec<(usize, u16)>,
    names_own: Vec<(usize, u16)>,
    names_opp: Vec<(usize, u16)>,
    not_own: Vec<(usize, u16)>,
    not_opp: Vec<(usize, u16)>,
    of_def: Vec<(usize, u16)>,
    opening_at: Vec<(usize, u16)>,
    needs_opening: Vec<u16>,
    needs_rook_home: Vec<u16>,
}

impl Gathered {
    /// Counts test `t` of entry `e` (a pattern for `side`) where it is counted, and notes
    /// what sets the pattern aside.
    fn add(&mut self, counted: &mut Vec<Counted>, t: &Test, side: Color, e: u16) {
        match *t {
            Test::All(who, k, q) => self.squares(counted, who, k, q, true, e),
            Test::Any(who, k, q) | Test::None(who, k, q) if q.count_ones() == 1 => {
                let present = matches!(t, Test::Any(..));
                self.squares(counted, who, k, q, present, e);
            }
            Test::Any(who, k, q) | Test::None(who, k, q) => {
                let group = Group {
                    color: who,
                    kinds: k,
                    squares: q,
                    none: matches!(t, Test::None(..)),
                };
                let g = match self.groups.iter().position(|x| *x == group) {
                    Some(g) => g,
                    None => {
                        self.groups.push(group);
                        let g = self.groups.len() - 1;
                        let item = g as u16 | GROUP | if group.none { NONE } else { 0 };
                        each_square(who, k, q, |key| {
                            self.enter.push((key, item));
                            self.leave.push((key, item));
                        });
                        g
                    }
                };
                self.group_entries.push((g, e));
                counted.push(Counted::Group(g as u16));
            }
            Test::Hand(who, k) => {
                self.hands.push((hand_key(who, k), e));
                counted.push(Counted::Hand(hand_key(who, k)));
            }
            Test::Had(who, d) | Test::Did(who, d) | Test::Just(who, d) => {
                let how = match t {
                    Test::Did(..) => NAME_DID,
                    Test::Just(..) => NAME_JUST,
                    _ => 0,
                };
                let list = if who == side {
                    &mut self.names_own
                } else {
                    &mut self.names_opp
                };
                list.push((d as usize, e | how));
                counted.push(Counted::Name);
            }
            Test::NotHad(who, d) if who == side => self.not_own.push((d as usize, e)),
            Test::NotHad(_, d) => self.not_opp.push((d as usize, e)),
            Test::Opening => self.needs_opening.push(e),
            Test::RookHome(_) => self.needs_rook_home.push(e),
        }
    }

    /// Each square of `squares` holds one of `who`'s pieces of `kinds` (`present`), or none:
    /// a condition each, which a piece entering or leaving the square changes.
    fn squares(
        &mut self,
        counted: &mut Vec<Counted>,
        who: Color,
        kinds: Kinds,
        squares: Squares,
        present: bool,
        e: u16,
    ) {
        let mut bits = squares;
        while bits != 0 {
            let square = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            counted.push(Counted::Square {
                color: who,
                kinds,
                square,
                present,
            });
            // A piece entering makes "one of them here" hold and "none here" stop holding;
            // one leaving, the other way round (a square holds one piece).
            let (on, off) = (e | NOW_HOLDS, e);
            each_square(who, kinds, 1 << square, |key| {
                self.enter.push((key, if present { on } else { off }));
                self.leave.push((key, if present { off } else { on }));
            });
        }
    }
}

/// Calls `each` with `slot × 81 + square` for each of `who`'s kinds in `kinds` and each
/// square of `squares`.
fn each_square(who: Color, kinds: Kinds, squares: Squares, mut each: impl FnMut(usize)) {
    for k in 0..14 {
        if kinds & (1 << k) == 0 {
            continue;
        }
        let row = who.index() * 14 + k;
        let mut bits = squares;
        while bits != 0 {
            each(row * 81 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// A pattern's condition as a test for `side`: `me` is the side, `them` the other.
fn test(cond: &Cond, side: Color) -> Option<Test> {
    let (me, them) = (side, side.opponent());
    let turn = |q: Squares| if side == Color::White { rotate(q) } else { q };
    Some(match *cond {
        Cond::Own(k, q) => Test::All(me, k, turn(q)),
        Cond::OwnAny(k, q) => Test::Any(me, k, turn(q)),
        Cond::OwnNone(k, q) => Test::None(me, k, turn(q)),
        Cond::Opp(k, q) => Test::All(them, k, turn(q)),
        Cond::OppAny(k, q) => Test::Any(them, k, turn(q)),
        Cond::OppNone(k, q) => Test::None(them, k, turn(q)),
        Cond::OwnHand(k) => Test::Hand(me, k),
        Cond::OppHand(k) => Test::Hand(them, k),
        Cond::Had(n) => Test::Had(me, def_of(n)),
        Cond::Just(n) => Test::Just(me, def_of(n)),
        Cond::NotHad(n) => Test::NotHad(me, def_of(n)),
        Cond::OppHad(n) => Test::Had(them, def_of(n)),
        Cond::OppNotHad(n) => Test::NotHad(them, def_of(n)),
        Cond::OppDid(n) => Test::Did(them, def_of(n)),
        Cond::Opening => Test::Opening,
        Cond::RookHome => Test::RookHome(me),
        Cond::Side(_) => return None,
    })
}

impl Matcher {
    pub(super) fn build() -> Matcher {
        assert!(
            PATTERNS.len() <= WORDS * 64 && 2 * PATTERNS.len() <= ENTRIES,
            "classify: at most {} patterns (make `Set` wider)",
            WORDS * 64
        );
        assert!(DEFS.len() <= MAX_DEFS, "classify: at most {MAX_DEFS} names");
        let mut patterns = Vec::new();
        let mut g = Gathered::default();
        let mut even_done = [Set::default(); 2];
        let mut last_ply = 0;
        for (i, p) in PATTERNS.iter().enumerate() {
            let def = def_of(p.name);
            let mut c = Compiled {
                def,
                start: p.plies.0.max(1),
                end: p.plies.1,
                tests: [Vec::new(), Vec::new()],
                counted: [Vec::new(), Vec::new()],
            };
            last_ply = last_ply.max(p.plies.1);
            g.of_def.push((def as usize, i as u16));
            for side in Color::ALL {
                let s = side.index();
                for cond in p.conds {
                    if let Cond::Side(only) = *cond
                        && only != side
                    {
                        even_done[s].add(i);
                    }
                    let Some(t) = test(cond, side) else {
                        continue;
                    };
                    g.add(&mut c.counted[s], &t, side, entry(i, s));
                    c.tests[s].push(t);
                }
                assert!(
                    c.counted[s].len() < 256,
                    "classify: at most 255 conditions counted in {}",
                    p.name
                );
            }
            if c.start > 1 {
                for s in 0..2 {
                    g.opening_at.push((c.start as usize, entry(i, s)));
                }
            }
            patterns.push(c);
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
        assert!(
            g.groups.len() <= GROUPS,
            "classify: at most {GROUPS} groups"
        );
        let mut opening_plies = vec![false; last_ply as usize + 1];
        for &(ply, _) in &g.opening_at {
            opening_plies[ply] = true;
        }
        let even_board = Board::new(&Position::startpos());
        let mut m = Matcher {
            patterns,
            enter: Lists::new(29 * 81, &g.enter),
            leave: Lists::new(29 * 81, &g.leave),
            group_entries: Lists::new(g.groups.len(), &g.group_entries),
            groups: g
                .groups
                .iter()
                .map(|x| (x.color, x.kinds, x.squares, x.none))
                .collect(),
            hands: Lists::new(NEVER_GAINED + 1, &g.hands),
            names_own: Lists::new(DEFS.len(), &g.names_own),
            names_opp: Lists::new(DEFS.len(), &g.names_opp),
            not_had_own: Lists::new(DEFS.len(), &g.not_own),
            not_had_opp: Lists::new(DEFS.len(), &g.not_opp),
            of_def: Lists::new(DEFS.len(), &g.of_def),
            opening_at: Lists::new(last_ply as usize + 1, &g.opening_at),
            opening_plies,
            needs_opening: g.needs_opening,
            needs_rook_home: g.needs_rook_home,
            lineage,
            last_ply,
            even_board: even_board.clone(),
            even_mailbox: Mailbox::new(&even_board),
            even_done: [Set::default(); 2],
            even_at_start: Vec::new(),
            even_missing: [0; ENTRIES],
            even_occupied: [0; GROUPS],
        };
        let state = m.start_state(&even_board);
        m.even_done = [
            m.impossible(&even_board, Color::Black, &even_done[0], state),
            m.impossible(&even_board, Color::White, &even_done[1], state),
        ];
        m.even_at_start = m.at_start(&even_board, &m.even_done, state);
        (m.even_missing, m.even_occupied) = m.counts(&even_board);
        m
    }

    /// The opening and rook state before the first move.
    pub(super) fn start_state(&self, board: &Board) -> State {
        let home =
            |s: usize| board.of_slot(slot(Color::ALL[s], PieceKind::Rook)) & super::HOME[s] != 0;
        State {
            opening: true,
            rook_home: [home(0), home(1)],
        }
    }

    /// Per entry, how many of its counted conditions do not hold on `board` before the
    /// first move; and per group, how many pieces stand on its squares.
    pub(super) fn counts(&self, board: &Board) -> ([u8; ENTRIES], [u8; GROUPS]) {
        let mut occupied = [0; GROUPS];
        for (g, &(color, kinds, squares, _)) in self.groups.iter().enumerate() {
            occupied[g] = (board.of(color, kinds) & squares).count_ones() as u8;
        }
        let mut missing = [0; ENTRIES];
        for (i, p) in self.patterns.iter().enumerate() {
            for (s, counted) in p.counted.iter().enumerate() {
                let not = counted
                    .iter()
                    .filter(|c| match **c {
                        Counted::Square {
                            color,
                            kinds,
                            square,
                            present,
                        } => (board.of(color, kinds) >> square & 1 != 0) != present,
                        Counted::Group(g) => {
                            (occupied[g as usize] == 0) != self.groups[g as usize].3
                        }
                        Counted::Hand(h) => {
                            h >= 14 || board.in_hand(Color::ALL[h / 7], PieceKind::ALL[h % 7]) == 0
                        }
                        Counted::Name => true,
                    })
                    .count();
                missing[entry(i, s) as usize] = not as u8;
            }
        }
        (missing, occupied)
    }

    /// The patterns a side can never make honestly from this start: those for the other
    /// side only (`sides`), those asking for a piece kind the side (or its opponent) has
    /// neither on the board nor in hand (the 上手's missing rook in a handicap game), even
    /// if one is captured and dropped later, and those asking for a rook at home it has not.
    pub(super) fn impossible(&self, board: &Board, side: Color, sides: &Set, state: State) -> Set {
        let mut have = [0 as Kinds; 2];
        for c in Color::ALL {
            for k in PieceKind::ALL {
                if board.of(c, kind(k)) != 0 || (k.index() < 7 && board.in_hand(c, k) > 0) {
                    have[c.index()] |= kind(k) | kind(k.unpromoted());
                }
            }
        }
        let mut out = *sides;
        for (i, p) in self.patterns.iter().enumerate() {
            let bad = p.tests[side.index()].iter().any(|t| match *t {
                Test::All(c, k, _) | Test::Any(c, k, _) => have[c.index()] & k == 0,
                Test::Hand(c, k) => have[c.index()] & kind(k) == 0,
                Test::RookHome(c) => !state.rook_home[c.index()],
                _ => false,
            });
            if bad {
                out.add(i);
            }
        }
        out
    }

    /// The entries whose window includes ply 1 that already hold on the start board, before
    /// any name is found: only they, and those the first move completes, can hold after it.
    pub(super) fn at_start(&self, board: &Board, done: &[Set; 2], state: State) -> Vec<u16> {
        let none = [Found::new(), Found::new()];
        let mut out = Vec::new();
        for (i, p) in self.patterns.iter().enumerate() {
            for (s, done) in done.iter().enumerate() {
                if p.start <= 1
                    && !done.has(i)
                    && p.tests[s].iter().all(|t| holds(t, board, &none, state))
                {
                    out.push(entry(i, s));
                }
            }
        }
        out
    }

    /// The patterns read only for the other side (`Side`).
    pub(super) fn side_only(&self, side: Color) -> Set {
        let mut out = Set::default();
        for (i, p) in PATTERNS.iter().enumerate() {
            if p.conds
                .iter()
                .any(|c| matches!(c, Cond::Side(only) if *only != side))
            {
                out.add(i);
            }
        }
        out
    }
}
