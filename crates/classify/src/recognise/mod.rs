//! The matcher: replays a main line and tries, after each ply, only the patterns that may
//! have started to hold, within their windows; it stops at the last window.
//!
//! Each pattern (for each side) keeps a count of its conditions that do not hold, of those
//! that a move, a capture or a name can make hold: a square holding one of a side's pieces
//! of some kinds, or none of them (each square of an `Own`/`Opp` set, or of an
//! `OwnNone`/`OppNone` one); a set of squares any of which will do (a group, which keeps its
//! own count of the pieces on it); a hand holding a kind; a name had, found directly, or
//! found at this ply. A move updates only the counts of the conditions on the squares it
//! changed (a square holds one piece: a piece entering or leaving changes each condition
//! on the square one way); a capture or drop, those on the hand it filled or emptied; a name
//! found, those asking for it. A pattern is tried when its count reaches zero, and when its
//! window opens with its count at zero.
//!
//! The other conditions (the opening still on, the rook still home, a name not had) only
//! ever stop holding, and the patterns that need them are set aside for good when they do.
//! So a pattern whose count is zero, not set aside and within its window holds, and one
//! starts to hold only when its count reaches zero or its window opens: the answer is the
//! one a test of every pattern after every ply would give (`tests/it/classify.rs` checks
//! it; builds with debug assertions test every pattern found on a full board too), whatever
//! the order the patterns are tried in. Within a ply, names found may complete other
//! patterns of either side, and "not had" reads the names found before the ply.

mod tables;

use std::sync::OnceLock;

use super::board::{Board, EMPTY, Mailbox, NO_HAND, Squares, area, rotate, slot};
use kifudex_shogi::{Color, Move, PieceKind, Position};
use tables::Compiled;

/// A test of a pattern for one side, colours resolved.
#[derive(Clone, Debug)]
enum Test {
    All(Color, super::board::Kinds, Squares),
    Any(Color, super::board::Kinds, Squares),
    None(Color, super::board::Kinds, Squares),
    Hand(Color, PieceKind),
    Had(Color, u16),
    Did(Color, u16),
    Just(Color, u16),
    NotHad(Color, u16),
    Opening,
    RookHome(Color),
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
const MAX_DEFS: usize = 512;
const DEF_WORDS: usize = MAX_DEFS / 64;
/// The most names one side may be found with in a game (more are not kept).
const MAX_FOUND: usize = 128;

/// Names as a set, bit per name.
type Defs = [u64; DEF_WORDS];

#[inline]
fn has_def(set: &Defs, d: u16) -> bool {
    set[d as usize >> 6] >> (d & 63) & 1 != 0
}

/// The most entries (a pattern for a side): counts are kept in arrays this long.
const ENTRIES: usize = WORDS * 64 * 2;
/// The most groups.
const GROUPS: usize = 256;

/// In the lists of [`Matcher::enter`] and [`Matcher::leave`]: an item for a group, not an
/// entry.
const GROUP: u16 = 1 << 14;
/// In the same lists: the change makes the entry's square condition hold (its count goes
/// down), where without it the condition stops holding; for a group, the group asks for no
/// piece on its squares rather than one.
const NOW_HOLDS: u16 = 1 << 15;
const NONE: u16 = 1 << 15;
/// In the lists by name: the condition asks for the name found directly (`OppDid`), or
/// found at this ply (`Just`); without either, found (`Had`).
const NAME_DID: u16 = 1 << 14;
const NAME_JUST: u16 = 1 << 15;
/// The entry of a list item.
const ENTRY: u16 = (1 << 14) - 1;

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

/// Per game: whether the opening is still on, and each side's rook still home.
#[derive(Clone, Copy)]
struct State {
    opening: bool,
    rook_home: [bool; 2],
}

pub(super) struct Matcher {
    patterns: Vec<Compiled>,
    /// By `slot × 81 + square` (slot 0–28, `EMPTY` included): the items a piece entering
    /// that square changes: an entry's square condition ([`NOW_HOLDS`] set when it then
    /// holds), or a group ([`GROUP`]) the square is one of.
    enter: Lists,
    /// The same for a piece leaving the square.
    leave: Lists,
    /// By group: its entries.
    group_entries: Lists,
    /// Each group's squares: `color`'s pieces of `kinds` on any of `squares` (or on none of
    /// them: `true`).
    groups: Vec<(Color, super::board::Kinds, Squares, bool)>,
    /// By hand (`colour × 7 + kind`): the entries that ask it to hold that kind.
    hands: Lists,
    /// By name: the entries of the side that finds it asking for it, and those of the other
    /// side ([`NAME_DID`], [`NAME_JUST`] marking how).
    names_own: Lists,
    names_opp: Lists,
    /// By name: the patterns of the side that finds it, and of the other side, that ask for
    /// its absence (set aside after the ply it is found at).
    not_had_own: Lists,
    not_had_opp: Lists,
    /// By name: its patterns.
    of_def: Lists,
    /// By ply: the entries whose window opens then (after the first ply), and whether there
    /// are any.
    opening_at: Lists,
    opening_plies: Vec<bool>,
    /// The patterns that need the opening on, and the side's rook home.
    needs_opening: Vec<u16>,
    needs_rook_home: Vec<u16>,
    /// Per name, its ancestors (itself first).
    lineage: Vec<Vec<u16>>,
    last_ply: u16,
    /// The even start: its board, the patterns impossible for each side, the entries
    /// that hold on it (tried after the first move), each entry's count of the conditions
    /// that do not hold and each group's count of pieces.
    even_board: Board,
    even_mailbox: Mailbox,
    even_done: [Set; 2],
    even_at_start: Vec<u16>,
    even_missing: [u8; ENTRIES],
    even_occupied: [u8; GROUPS],
}

/// Each side's home rank for its rook: ▲'s eighth rank, files 2–8 (read for gote rotated).
const HOME: [Squares; 2] = [area(2, 8, 8, 8), rotate(area(2, 8, 8, 8))];

/// The squares of [`HOME`] by side, as indices.
const HOME_SQUARES: [[u8; 7]; 2] = {
    let mut out = [[0; 7]; 2];
    let mut s = 0;
    while s < 2 {
        let mut bits = HOME[s];
        let mut n = 0;
        while bits != 0 {
            out[s][n] = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            n += 1;
        }
        s += 1;
    }
    out
};

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

/// Per slot (`EMPTY` included): whether it is an unpromoted rook's (a side's rook leaves
/// home only when such a piece leaves a square).
const IS_ROOK: [bool; 29] = {
    let mut out = [false; 29];
    out[PieceKind::Rook as usize] = true;
    out[14 + PieceKind::Rook as usize] = true;
    out
};

/// One down in entry `e`'s count: tried when it reaches zero.
#[inline(always)]
fn down(missing: &mut [u8; ENTRIES], work: &mut Vec<u16>, e: u16) {
    let m = &mut missing[(e & ENTRY) as usize];
    *m -= 1;
    if *m == 0 {
        work.push(e & ENTRY);
    }
}

/// The key of a piece on a square in [`Matcher::enter`] and [`Matcher::leave`].
#[inline(always)]
fn key((slot, square): (u8, u8)) -> usize {
    slot as usize * 81 + square as usize
}

impl Matcher {
    pub(super) fn get() -> &'static Matcher {
        static MATCHER: OnceLock<Matcher> = OnceLock::new();
        MATCHER.get_or_init(Matcher::build)
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

    /// Updates the counts for a piece entering (`enter`) or leaving a square: `items` from
    /// [`Matcher::enter`] or [`Matcher::leave`].
    #[inline(always)]
    fn squares_changed(
        &self,
        items: &[u16],
        enter: bool,
        missing: &mut [u8; ENTRIES],
        occupied: &mut [u8; GROUPS],
        work: &mut Vec<u16>,
    ) {
        for &c in items {
            if c & GROUP == 0 {
                if c & NOW_HOLDS != 0 {
                    down(missing, work, c);
                } else {
                    missing[(c & ENTRY) as usize] += 1;
                }
                continue;
            }
            let g = (c & ENTRY) as usize;
            let n = &mut occupied[g % GROUPS];
            // From none to one piece, or back: the group starts or stops holding.
            let edge = if enter {
                *n += 1;
                *n == 1
            } else {
                *n -= 1;
                *n == 0
            };
            if !edge {
                continue;
            }
            if enter == (c & NONE == 0) {
                for &e in self.group_entries.get(g) {
                    down(missing, work, e);
                }
            } else {
                for &e in self.group_entries.get(g) {
                    missing[(e & ENTRY) as usize] += 1;
                }
            }
        }
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
        let (fresh_board, fresh_at_start);
        let (board, mut done, at_start, mut state, (mut missing, mut occupied)) = if even {
            let state = State {
                opening: true,
                rook_home: [true; 2],
            };
            (
                &self.even_board,
                self.even_done,
                &self.even_at_start,
                state,
                (self.even_missing, self.even_occupied),
            )
        } else {
            fresh_board = Board::new(start);
            let state = self.start_state(&fresh_board);
            let mut sides = [Set::default(); 2];
            for (s, side) in sides.iter_mut().enumerate() {
                *side = self.side_only(Color::ALL[s]);
            }
            let done = [
                self.impossible(&fresh_board, Color::Black, &sides[0], state),
                self.impossible(&fresh_board, Color::White, &sides[1], state),
            ];
            fresh_at_start = self.at_start(&fresh_board, &done, state);
            let counts = self.counts(&fresh_board);
            (&fresh_board, done, &fresh_at_start, state, counts)
        };
        let mut mailbox = if even {
            self.even_mailbox.clone()
        } else {
            Mailbox::new(board)
        };
        // With debug assertions, the full board too: each pattern found is tested on it.
        let mut check = cfg!(debug_assertions).then(|| board.clone());
        let mut mover = start.side_to_move();
        let mut ply: u16 = 0;
        let mut work: Vec<u16> = Vec::with_capacity(64);
        for mv in moves {
            ply += 1;
            if ply > self.last_ply {
                break;
            }
            let change = mailbox.play(mover, mv);
            if let Some(check) = check.as_mut() {
                check.play(mover, mv);
            }
            mover = mover.opponent();
            if state.opening && !KEEPS_OPENING[change.taken.0 as usize] {
                state.opening = false;
                for &e in &self.needs_opening {
                    done[(e & 1) as usize].add((e >> 1) as usize);
                }
            }
            if IS_ROOK[change.moved.0 as usize] || IS_ROOK[change.taken.0 as usize] {
                for s in 0..2 {
                    let rook = slot(Color::ALL[s], PieceKind::Rook);
                    if state.rook_home[s] && !HOME_SQUARES[s].iter().any(|&q| mailbox.at(q) == rook)
                    {
                        state.rook_home[s] = false;
                        for &e in &self.needs_rook_home {
                            if (e & 1) as usize == s {
                                done[s].add((e >> 1) as usize);
                            }
                        }
                    }
                }
            }
            // The piece entering first: one moving within a group's squares leaves its count
            // above zero, and the entries' as they were.
            let (m, o, w) = (&mut missing, &mut occupied, &mut work);
            self.squares_changed(self.enter.get(key(change.entered)), true, m, o, w);
            self.squares_changed(self.leave.get(key(change.moved)), false, m, o, w);
            if change.taken.0 != EMPTY {
                self.squares_changed(self.leave.get(key(change.taken)), false, m, o, w);
            }
            if change.gained != NO_HAND {
                for &e in self.hands.get(change.gained as usize) {
                    down(m, w, e);
                }
            }
            if change.lost != NO_HAND {
                for &e in self.hands.get(change.lost as usize) {
                    m[e as usize] += 1;
                }
            }
            let opening = if ply == 1 {
                &at_start[..]
            } else if self.opening_plies[ply as usize] {
                self.opening_at.get(ply as usize)
            } else {
                &[]
            };
            work.extend(opening.iter().filter(|&&e| missing[e as usize] == 0));
            if work.is_empty() {
                continue;
            }
            let mut found_now = false;
            while let Some(e) = work.pop() {
                let (i, s) = ((e >> 1) as usize, (e & 1) as usize);
                if missing[e as usize] != 0 || done[s].has(i) {
                    continue;
                }
                let p = &self.patterns[i];
                if ply < p.start || ply > p.end {
                    continue;
                }
                if let Some(check) = &check {
                    assert!(
                        p.tests[s].iter().all(|t| holds(t, check, &found, state)),
                        "classify: pattern {i} for side {s} counted whole at ply {ply} but not holding"
                    );
                }
                for &d in &self.lineage[p.def as usize] {
                    let f = &mut found[s];
                    if has_def(&f.had, d) {
                        continue;
                    }
                    f.had[d as usize >> 6] |= 1 << (d & 63);
                    f.just[d as usize >> 6] |= 1 << (d & 63);
                    let direct = d == p.def;
                    if direct {
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
                    let asking = |c: u16, own: bool| {
                        ((c & 1) as usize == s) == own && (direct || c & NAME_DID == 0)
                    };
                    for &c in self.names_own.get(d as usize) {
                        if asking(c, true) {
                            down(&mut missing, &mut work, c);
                        }
                    }
                    for &c in self.names_opp.get(d as usize) {
                        if asking(c, false) {
                            down(&mut missing, &mut work, c);
                        }
                    }
                }
            }
            if found_now {
                // Names found at this ply: what asks for their absence is set aside from the
                // next ply on, and what asks for them found at this ply no longer holds.
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
                            let just_own = self.names_own.get(d).iter().map(|&c| (c, true));
                            let just_opp = self.names_opp.get(d).iter().map(|&c| (c, false));
                            for (c, own) in just_own.chain(just_opp) {
                                if c & NAME_JUST != 0 && ((c & 1) as usize == s) == own {
                                    missing[(c & ENTRY) as usize] += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        (found, ply)
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
