//! The matcher: replays a main line on a [`Board`] and tries, after each ply, only the
//! patterns a move could have changed (those naming a piece on a square a piece entered or
//! left, those reading a hand that gained its first piece of a kind, those whose window
//! opens, those asking for a name just found), within their windows; it stops at the last
//! window.
//!
//! A pattern can start to hold only when one of its conditions starts to hold, and every
//! condition that can start to hold has such a trigger: the others (the opening still on,
//! the rook still home, a name not had) only ever stop holding, and the patterns that need
//! them are set aside for good when they do. So the answer is the one a test of every
//! pattern after every ply would give (`tests/it/classify.rs` checks it), whatever the order
//! the patterns are tried in: within a ply, names found may complete other patterns of
//! either side (they are tried again), and "not had" reads the names found before the ply.

use std::sync::OnceLock;

use super::board::{Board, Kinds, NO_HAND, Squares, area, kind, rotate, slot};
use super::patterns::{Cond, DEFS, PATTERNS};
use kifudex_shogi::{Color, Move, PieceKind, Position};

/// A test of a pattern for one side, colours resolved.
#[derive(Clone, Debug)]
enum Test {
    All(Color, Kinds, Squares),
    Any(Color, Kinds, Squares),
    None(Color, Kinds, Squares),
    Hand(Color, PieceKind),
    Had(Color, u16),
    Did(Color, u16),
    Just(Color, u16),
    NotHad(Color, u16),
    Opening,
    RookHome(Color),
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

/// Words of a [`Set`].
const WORDS: usize = 8;

/// A set of patterns, bit `i` for `PATTERNS[i]` (at most 512).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Set([u64; WORDS]);

impl Set {
    #[inline]
    fn has(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline]
    fn add(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
}

/// The most names the definitions may hold.
pub(super) const MAX_DEFS: usize = 512;
const DEF_WORDS: usize = MAX_DEFS / 64;
/// The most names one side may be found with in a game (more are not kept).
const MAX_FOUND: usize = 128;

/// Names as a set, bit per name.
type Defs = [u64; DEF_WORDS];

#[inline]
fn has_def(set: &Defs, d: u16) -> bool {
    set[d as usize >> 6] >> (d & 63) & 1 != 0
}

/// One side's names, in the order they were found: the name, the ply it first held at and
/// the move played at that ply.
pub(super) struct Found {
    defs: [u16; MAX_FOUND],
    plies: [u16; MAX_FOUND],
    moves: [Option<Move>; MAX_FOUND],
    len: usize,
    /// The names found, as a set.
    had: Defs,
    /// The names found at the ply being read.
    just: Defs,
    /// The names found through one of their own patterns (not first as an ancestor).
    direct: Defs,
}

impl Found {
    fn new() -> Found {
        Found {
            defs: [0; MAX_FOUND],
            plies: [0; MAX_FOUND],
            moves: [None; MAX_FOUND],
            len: 0,
            had: [0; DEF_WORDS],
            just: [0; DEF_WORDS],
            direct: [0; DEF_WORDS],
        }
    }

    /// `(name, ply, move)` of each name found, in the order found.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u16, u16, Option<Move>)> + '_ {
        (0..self.len).map(|i| (self.defs[i], self.plies[i], self.moves[i]))
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The ply `def` was first found at, if it was.
    pub(super) fn ply(&self, def: u16) -> Option<u16> {
        (0..self.len)
            .find(|&i| self.defs[i] == def)
            .map(|i| self.plies[i])
    }
}

/// Lists of pattern entries by key (a piece's slot and square, a name, a ply), stored one
/// after the other: a move reads three short lists, not a table of sets.
struct Lists {
    start: Vec<u32>,
    items: Vec<u16>,
}

impl Lists {
    fn new(keys: usize, entries: &[(usize, u16)]) -> Lists {
        let mut count = vec![0u32; keys + 1];
        for &(k, _) in entries {
            count[k + 1] += 1;
        }
        for k in 0..keys {
            count[k + 1] += count[k];
        }
        let mut items = vec![0u16; entries.len()];
        let mut at = count.clone();
        for &(k, item) in entries {
            items[at[k] as usize] = item;
            at[k] += 1;
        }
        Lists {
            start: count,
            items,
        }
    }

    #[inline]
    fn get(&self, key: usize) -> &[u16] {
        &self.items[self.start[key] as usize..self.start[key + 1] as usize]
    }
}

/// Where [`Board`] counts `who`'s pieces of `k` in hand; for a kind no hand holds (a test of
/// it never holds) a key that nothing reads.
fn hand_key(who: Color, k: PieceKind) -> usize {
    if k.index() < 7 {
        who.index() * 7 + k.index()
    } else {
        NEVER_GAINED
    }
}

/// The key of [`Matcher::on_hands`] that no move reads.
const NEVER_GAINED: usize = NO_HAND as usize + 1;

/// An entry: the pattern and the side it is read for.
#[inline]
fn entry(pattern: usize, side: usize) -> u16 {
    (pattern << 1 | side) as u16
}

struct Compiled {
    def: u16,
    start: u16,
    end: u16,
    /// Per side, the squares of the side's own king at which its tests of that king hold.
    king: [u128; 2],
    /// Per side (sente, gote): the tests, rotated for gote.
    tests: [Vec<Test>; 2],
    /// Per side, the tests on squares other than those of the side's own king (which
    /// `king` answered already), each one mask comparison.
    masks: [Vec<Mask>; 2],
    /// Per side, the other tests (hands, names, the opening, the rook).
    rest: [Vec<Test>; 2],
}

/// Per game: whether the opening is still on, and each side's rook still home.
#[derive(Clone, Copy)]
struct State {
    opening: bool,
    rook_home: [bool; 2],
}

pub(super) struct Matcher {
    patterns: Vec<Compiled>,
    /// By `slot × 81 + square` (slot 0–28, `EMPTY` included): the entries a piece entering
    /// that square may complete (it stands in one of their `All` or `Any` sets).
    on_enter: Lists,
    /// The same for a piece leaving the square (it stands in one of their `None` sets).
    on_leave: Lists,
    /// By hand (`colour × 7 + kind`): the entries that read it, tried when a capture gives
    /// it its first piece (a hand only starts to hold a kind then).
    on_hands: Lists,
    /// By name: the patterns of the side that finds it asking for it (`Had`, `Just`).
    on_name_own: Lists,
    /// By name: the patterns of the other side asking for it (`OppHad`).
    on_name_opp: Lists,
    /// By name: the patterns of the side that finds it, and of the other side, that ask for
    /// its absence (set aside after the ply it is found at).
    not_had_own: Lists,
    not_had_opp: Lists,
    /// By name: its patterns.
    of_def: Lists,
    /// By ply: the entries whose window opens then (after the first ply).
    opening_at: Lists,
    /// The patterns that need the opening on, and the side's rook home.
    needs_opening: Vec<u16>,
    needs_rook_home: Vec<u16>,
    /// Per name, its ancestors (itself first).
    lineage: Vec<Vec<u16>>,
    last_ply: u16,
    /// The even start: its board, the patterns impossible for each side, and the entries
    /// that hold on it (tried after the first move).
    even_board: Board,
    even_done: [Set; 2],
    even_at_start: Vec<u16>,
}

pub(super) fn def_index(name: &str) -> Option<usize> {
    DEFS.iter().position(|d| d.name == name)
}

fn def_of(name: &str) -> u16 {
    def_index(name).unwrap_or_else(|| panic!("classify: unknown name {name}")) as u16
}

/// Each side's home rank for its rook: ▲'s eighth rank, files 2–8 (read for gote rotated).
const HOME: [Squares; 2] = [area(2, 8, 8, 8), rotate(area(2, 8, 8, 8))];

/// Per captured slot (`EMPTY` included): whether taking it leaves the opening on (nothing,
/// a pawn, a bishop or a horse).
const KEEPS_OPENING: [bool; 29] = {
    let mut out = [false; 29];
    let mut s = 0;
    while s < 29 {
        let k = s % 14;
        out[s] = s == 28
            || k == PieceKind::Pawn as usize
            || k == PieceKind::Bishop as usize
            || k == PieceKind::Horse as usize;
        s += 1;
    }
    out
};

impl Matcher {
    pub(super) fn get() -> &'static Matcher {
        static MATCHER: OnceLock<Matcher> = OnceLock::new();
        MATCHER.get_or_init(Matcher::build)
    }

    fn build() -> Matcher {
        assert!(
            PATTERNS.len() <= WORDS * 64 && PATTERNS.len() < 1 << 15,
            "classify: at most {} patterns (make `Set` wider)",
            WORDS * 64
        );
        assert!(DEFS.len() <= MAX_DEFS, "classify: at most {MAX_DEFS} names");
        let mut patterns = Vec::new();
        let (mut enter, mut leave, mut on_hands) = (Vec::new(), Vec::new(), Vec::new());
        let (mut name_own, mut name_opp) = (Vec::new(), Vec::new());
        let (mut not_own, mut not_opp) = (Vec::new(), Vec::new());
        let (mut of_def, mut opening_at) = (Vec::new(), Vec::new());
        let (mut needs_opening, mut needs_rook_home) = (Vec::new(), Vec::new());
        let mut even_done = [Set::default(); 2];
        let mut last_ply = 0;
        for (i, p) in PATTERNS.iter().enumerate() {
            let def = def_of(p.name);
            let mut c = Compiled {
                def,
                start: p.plies.0.max(1),
                end: p.plies.1,
                king: [!0; 2],
                tests: [Vec::new(), Vec::new()],
                masks: [Vec::new(), Vec::new()],
                rest: [Vec::new(), Vec::new()],
            };
            last_ply = last_ply.max(p.plies.1);
            of_def.push((def as usize, i as u16));
            for side in Color::ALL {
                let s = side.index();
                let turn = |q: Squares| if side == Color::White { rotate(q) } else { q };
                let (me, them) = (side, side.opponent());
                for cond in p.conds {
                    let t = match *cond {
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
                        Cond::Side(c) => {
                            if c != side {
                                even_done[s].add(i);
                            }
                            continue;
                        }
                    };
                    let own_king = |who: Color, k: Kinds| who == side && k == kind(PieceKind::King);
                    let mask = |squares, want, negate, who: Color, k: Kinds| Mask {
                        color: who,
                        kinds: k,
                        slot: one_slot(who, k),
                        squares,
                        want,
                        negate,
                    };
                    match t {
                        Test::All(who, k, q) if own_king(who, k) => {
                            c.king[s] &= q * (q.count_ones() == 1) as u128
                        }
                        Test::Any(who, k, q) if own_king(who, k) => c.king[s] &= q,
                        Test::None(who, k, q) if own_king(who, k) => c.king[s] &= !q,
                        Test::All(who, k, q) => c.masks[s].push(mask(q, q, false, who, k)),
                        Test::Any(who, k, q) => c.masks[s].push(mask(q, 0, true, who, k)),
                        Test::None(who, k, q) => c.masks[s].push(mask(q, 0, false, who, k)),
                        _ => c.rest[s].push(t.clone()),
                    }
                    // What may make the test start to hold, and what sets the pattern aside.
                    match t {
                        Test::All(who, k, q) | Test::Any(who, k, q) => {
                            triggers(&mut enter, who, k, q, i, s)
                        }
                        Test::None(who, k, q) => triggers(&mut leave, who, k, q, i, s),
                        Test::Hand(who, k) => on_hands.push((hand_key(who, k), entry(i, s))),
                        Test::Had(who, d) | Test::Did(who, d) | Test::Just(who, d)
                            if who == side =>
                        {
                            name_own.push((d as usize, entry(i, s)))
                        }
                        Test::Had(_, d) | Test::Did(_, d) | Test::Just(_, d) => {
                            name_opp.push((d as usize, entry(i, s)))
                        }
                        Test::NotHad(who, d) if who == side => {
                            not_own.push((d as usize, entry(i, s)))
                        }
                        Test::NotHad(_, d) => not_opp.push((d as usize, entry(i, s))),
                        Test::Opening => needs_opening.push(entry(i, s)),
                        Test::RookHome(_) => needs_rook_home.push(entry(i, s)),
                    }
                    c.tests[s].push(t);
                }
            }
            if c.start > 1 {
                for s in 0..2 {
                    opening_at.push((c.start as usize, entry(i, s)));
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
        let even_board = Board::new(&Position::startpos());
        let mut m = Matcher {
            patterns,
            on_enter: Lists::new(29 * 81, &enter),
            on_leave: Lists::new(29 * 81, &leave),
            on_hands: Lists::new(NEVER_GAINED + 1, &on_hands),
            on_name_own: Lists::new(DEFS.len(), &name_own),
            on_name_opp: Lists::new(DEFS.len(), &name_opp),
            not_had_own: Lists::new(DEFS.len(), &not_own),
            not_had_opp: Lists::new(DEFS.len(), &not_opp),
            of_def: Lists::new(DEFS.len(), &of_def),
            opening_at: Lists::new(last_ply as usize + 1, &opening_at),
            needs_opening,
            needs_rook_home,
            lineage,
            last_ply,
            even_board: even_board.clone(),
            even_done: [Set::default(); 2],
            even_at_start: Vec::new(),
        };
        let state = m.start_state(&even_board);
        m.even_done = [
            m.impossible(&even_board, Color::Black, &even_done[0], state),
            m.impossible(&even_board, Color::White, &even_done[1], state),
        ];
        m.even_at_start = m.at_start(&even_board, &m.even_done, state);
        m
    }

    /// The opening and rook state before the first move.
    fn start_state(&self, board: &Board) -> State {
        let home = |s: usize| board.of_slot(slot(Color::ALL[s], PieceKind::Rook)) & HOME[s] != 0;
        State {
            opening: true,
            rook_home: [home(0), home(1)],
        }
    }

    /// The patterns a side can never make honestly from this start: those for the other
    /// side only (`sides`), those asking for a piece kind the side (or its opponent) has
    /// neither on the board nor in hand (the 上手's missing rook in a handicap game), even
    /// if one is captured and dropped later, and those asking for a rook at home it has not.
    fn impossible(&self, board: &Board, side: Color, sides: &Set, state: State) -> Set {
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
    /// any name is found: only they, and those the first move may complete (its triggers),
    /// can hold after it.
    fn at_start(&self, board: &Board, done: &[Set; 2], state: State) -> Vec<u16> {
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

    /// Whether a name below `def` was found for the side at the same ply: it is implied by
    /// that name.
    pub(super) fn implied(&self, found: &Found, def: u16) -> bool {
        let Some(ply) = found.ply(def) else {
            return false;
        };
        found
            .iter()
            .any(|(c, p, _)| c != def && p == ply && self.lineage[c as usize][1..].contains(&def))
    }

    /// Whether `group` is an ancestor of `def` (not `def` itself).
    pub(super) fn under(&self, def: u16, group: u16) -> bool {
        self.lineage[def as usize][1..].contains(&group)
    }

    /// How deep a name is in the hierarchy (1 for a name without a parent).
    pub(super) fn depth(&self, def: usize) -> usize {
        self.lineage[def].len()
    }

    /// Each name found per side, with the ply it first held at and the move played then.
    /// `even`: whether `start` is the even start position. Also gives the plies read: all of
    /// the line, or one past the last window when it is longer.
    pub(super) fn run(
        &self,
        start: &Position,
        even: bool,
        moves: impl Iterator<Item = Move>,
    ) -> ([Found; 2], u16) {
        let mut found = [Found::new(), Found::new()];
        let fresh;
        let (mut board, mut done, at_start, mut state) = if even {
            let state = State {
                opening: true,
                rook_home: [true; 2],
            };
            (
                self.even_board.clone(),
                self.even_done,
                &self.even_at_start,
                state,
            )
        } else {
            let board = Board::new(start);
            let state = self.start_state(&board);
            let mut sides = [Set::default(); 2];
            for (s, side) in sides.iter_mut().enumerate() {
                *side = self.side_only(Color::ALL[s]);
            }
            let done = [
                self.impossible(&board, Color::Black, &sides[0], state),
                self.impossible(&board, Color::White, &sides[1], state),
            ];
            fresh = self.at_start(&board, &done, state);
            (board, done, &fresh, state)
        };
        let mut mover = start.side_to_move();
        let mut ply: u16 = 0;
        let mut work: Vec<u16> = Vec::with_capacity(64);
        for mv in moves {
            ply += 1;
            if ply > self.last_ply {
                break;
            }
            let changed = board.play(mover, mv);
            mover = mover.opponent();
            if state.opening && !KEEPS_OPENING[changed.left[1].0 as usize] {
                state.opening = false;
                for &e in &self.needs_opening {
                    done[(e & 1) as usize].add((e >> 1) as usize);
                }
            }
            for s in 0..2 {
                if state.rook_home[s]
                    && board.of_slot(slot(Color::ALL[s], PieceKind::Rook)) & HOME[s] == 0
                {
                    state.rook_home[s] = false;
                    for &e in &self.needs_rook_home {
                        if (e & 1) as usize == s {
                            done[s].add((e >> 1) as usize);
                        }
                    }
                }
            }
            if ply == 1 {
                work.extend_from_slice(at_start);
            } else {
                work.extend_from_slice(self.opening_at.get(ply as usize));
            }
            let (entered, [left, taken]) = (changed.entered, changed.left);
            let (on_enter, on_leave) = (&self.on_enter, &self.on_leave);
            work.extend_from_slice(on_enter.get(entered.0 as usize * 81 + entered.1 as usize));
            work.extend_from_slice(on_leave.get(left.0 as usize * 81 + left.1 as usize));
            work.extend_from_slice(on_leave.get(taken.0 as usize * 81 + taken.1 as usize));
            work.extend_from_slice(self.on_hands.get(changed.gained as usize));
            if work.is_empty() {
                continue;
            }
            let kings = [board.king(Color::Black), board.king(Color::White)];
            let mut found_now = false;
            while let Some(e) = work.pop() {
                let (i, s) = ((e >> 1) as usize, (e & 1) as usize);
                if done[s].has(i) {
                    continue;
                }
                let p = &self.patterns[i];
                if ply < p.start || ply > p.end {
                    continue;
                }
                let holds_now = if kings[s] < 81 {
                    p.king[s] >> kings[s] & 1 != 0
                        && p.masks[s].iter().all(|m| m.holds(&board))
                        && p.rest[s].iter().all(|t| holds(t, &board, &found, state))
                } else {
                    p.tests[s].iter().all(|t| holds(t, &board, &found, state))
                };
                if !holds_now {
                    continue;
                }
                for &d in &self.lineage[p.def as usize] {
                    let f = &mut found[s];
                    if has_def(&f.had, d) {
                        continue;
                    }
                    f.had[d as usize >> 6] |= 1 << (d & 63);
                    f.just[d as usize >> 6] |= 1 << (d & 63);
                    if d == p.def {
                        f.direct[d as usize >> 6] |= 1 << (d & 63);
                    }
                    if f.len < MAX_FOUND {
                        f.defs[f.len] = d;
                        f.plies[f.len] = ply;
                        f.moves[f.len] = Some(mv);
                        f.len += 1;
                    }
                    found_now = true;
                    for &j in self.of_def.get(d as usize) {
                        done[s].add(j as usize);
                    }
                    // Those asking for it, of this side and of the other.
                    work.extend(
                        self.on_name_own
                            .get(d as usize)
                            .iter()
                            .filter(|&&e| (e & 1) as usize == s),
                    );
                    work.extend(
                        self.on_name_opp
                            .get(d as usize)
                            .iter()
                            .filter(|&&e| (e & 1) as usize != s),
                    );
                }
            }
            if found_now {
                // Names found at this ply: what asks for their absence is set aside from the
                // next ply on.
                for s in 0..2 {
                    let just = std::mem::take(&mut found[s].just);
                    for (w, &bits) in just.iter().enumerate() {
                        let mut bits = bits;
                        while bits != 0 {
                            let d = w * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            for &e in self.not_had_own.get(d) {
                                if (e & 1) as usize == s {
                                    done[s].add((e >> 1) as usize);
                                }
                            }
                            for &e in self.not_had_opp.get(d) {
                                if (e & 1) as usize != s {
                                    done[1 - s].add((e >> 1) as usize);
                                }
                            }
                        }
                    }
                }
            }
        }
        (found, ply)
    }

    /// The patterns read only for the other side (`Side`).
    fn side_only(&self, side: Color) -> Set {
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

/// Adds the entry of pattern `i` for side `s` to `table` at every square of `squares`, for
/// each of `who`'s kinds in `kinds`.
fn triggers(
    table: &mut Vec<(usize, u16)>,
    who: Color,
    kinds: Kinds,
    squares: Squares,
    i: usize,
    s: usize,
) {
    for k in 0..14 {
        if kinds & (1 << k) == 0 {
            continue;
        }
        let row = who.index() * 14 + k;
        let mut bits = squares;
        while bits != 0 {
            table.push((row * 81 + bits.trailing_zeros() as usize, entry(i, s)));
            bits &= bits - 1;
        }
    }
}

#[inline]
fn holds(t: &Test, board: &Board, found: &[Found; 2], state: State) -> bool {
    match *t {
        Test::All(c, k, q) => board.of(c, k) & q == q,
        Test::Any(c, k, q) => board.of(c, k) & q != 0,
        Test::None(c, k, q) => board.of(c, k) & q == 0,
        Test::Hand(c, k) => board.in_hand(c, k) > 0,
        Test::Had(c, d) => has_def(&found[c.index()].had, d),
        Test::Did(c, d) => has_def(&found[c.index()].direct, d),
        Test::Just(c, d) => has_def(&found[c.index()].just, d),
        Test::NotHad(c, d) => {
            let f = &found[c.index()];
            !has_def(&f.had, d) || has_def(&f.just, d)
        }
        Test::Opening => state.opening,
        Test::RookHome(c) => state.rook_home[c.index()],
    }
}
