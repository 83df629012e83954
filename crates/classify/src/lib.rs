//! Openings (戦型), strategies (戦法) and castles (囲い) recognised from a replayed game.
//! Knows the board and the record model; nothing of files or storage.
//!
//! [`recognise`] walks the main line once, up to the last ply at which any pattern may
//! appear, and reports per side every name that held with the first ply at which it held
//! and the move played then (its ancestors in the hierarchy with it), plus the game's one
//! label and why it was chosen (see `label.rs` and `docs/openings.md` for the rule).
//! Positions that are not an even or handicap start (problems, positions set up by hand)
//! get nothing.

#![doc = include_str!("../README.md")]

mod board;
mod families;
mod label;
pub mod names;
mod pairing;
pub mod patterns;
mod recognise;

pub use label::{Fact, Reason, Rule};
pub use names::{
    Resolved, canonical, canonical_names, descendants, family, fold, lineage, lineage_of, resolve,
    split_header,
};
pub use pairing::{PairingItem, pairing};
pub use patterns::{DEFS, Def, Kind, PATTERNS};

use kifudex_notation::Record;
use kifudex_shogi::{Color, Handicap, Move, PieceKind, Position};
use recognise::Matcher;

/// The version of the definitions: bump it with every change of a pattern or name, so
/// that stored recognitions are computed again.
pub const CLASSIFY_VERSION: u32 = 11;

/// One name recognised for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub side: Color,
    pub kind: Kind,
    pub name: &'static str,
    /// The first ply (moves played from the start) at which it held.
    pub ply: u32,
    /// The move played at that ply: the one that completed the shape.
    pub mv: Move,
    /// Whether a name below it in the hierarchy held for the side from the same ply
    /// (振り飛車 beside 四間飛車): the database leaves it out, [`with_ancestors`] gives it back.
    pub implied: bool,
    /// The name's number in [`DEFS`].
    pub(crate) def: u16,
}

/// What was recognised in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recognised {
    /// The game's label; None for a start position that is neither even nor a handicap.
    pub opening: Option<&'static str>,
    /// Why the label was chosen (None with it).
    pub reason: Option<Reason>,
    /// Sente's items, then gote's, each by ply (strategies before castles at one ply, and
    /// a name before its ancestors).
    pub items: Vec<Item>,
}

impl Recognised {
    /// The items of one side.
    pub fn side(&self, side: Color) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(move |i| i.side == side)
    }

    /// Whether `side` was recognised with `name`.
    pub fn has(&self, side: Color, name: &str) -> bool {
        self.side(side).any(|i| i.name == name)
    }

    /// The ply at which `side` was first recognised with `name`.
    pub fn ply(&self, side: Color, name: &str) -> Option<u32> {
        self.side(side).find(|i| i.name == name).map(|i| i.ply)
    }

    /// The items the others do not imply, as the database keeps them (see [`Item::implied`]).
    pub fn stored(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| !i.implied)
    }
}

/// The names of one side as [`Recognised::stored`] keeps them, `(name, ply)`, with every
/// ancestor added at the first ply one of its descendants held: the side's whole list, by
/// ply, a name before its ancestors at one ply. Names this program does not know are kept
/// as they are.
pub fn with_ancestors<'a>(stored: impl IntoIterator<Item = (&'a str, u32)>) -> Vec<(&'a str, u32)> {
    // (name, ply, depth, place among the definitions)
    let mut out: Vec<(&'a str, u32, usize, usize)> = Vec::new();
    for (name, ply) in stored {
        let line = names::lineage_of(name);
        if line.is_empty() {
            out.push((name, ply, 0, usize::MAX));
        }
        let depth = line.len();
        for (up, &n) in line.iter().enumerate() {
            match out.iter_mut().find(|o| o.0 == n) {
                Some(o) if o.1 <= ply => {}
                Some(o) => {
                    o.1 = ply;
                    o.2 = depth - up;
                }
                None => out.push((n, ply, depth - up, names::place(n))),
            }
        }
    }
    out.sort_by_key(|o| (o.1, std::cmp::Reverse(o.2), o.3));
    out.into_iter().map(|(n, p, _, _)| (n, p)).collect()
}

/// Recognises the record's main line.
pub fn recognise_record(record: &Record) -> Recognised {
    recognise(&record.start, record.main.moves.iter().map(|m| m.mv))
}

/// Recognises a game from its start position and main line.
pub fn recognise(start: &Position, moves: impl IntoIterator<Item = Move>) -> Recognised {
    recognise_as(start, Handicap::detect(start), moves)
}

/// [`recognise`] when the start's handicap ([`Handicap::detect`]) is known already.
pub fn recognise_as(
    start: &Position,
    handicap: Handicap,
    moves: impl IntoIterator<Item = Move>,
) -> Recognised {
    debug_assert_eq!(handicap, Handicap::detect(start));
    // detect() compares board, hands and side to move (the move number may differ).
    let startpos = handicap == Handicap::Even;
    if handicap == Handicap::Other {
        return Recognised::default();
    }
    let matcher = Matcher::get();
    let (found, played) = matcher.run(start, startpos, moves.into_iter());
    let mut items = Vec::with_capacity(found[0].len() + found[1].len());
    for side in Color::ALL {
        let f = &found[side.index()];
        // By ply, strategies before castles, a name before its ancestors (deeper first), then
        // in the order of the definitions.
        let mut list: Vec<(u16, u16, Option<Move>)> = f.iter().collect();
        list.sort_by_key(|&(d, ply, _)| {
            (
                ply,
                DEFS[d as usize].kind,
                std::cmp::Reverse(matcher.depth(d as usize)),
                d,
            )
        });
        items.extend(list.into_iter().filter_map(|(d, ply, mv)| {
            Some(Item {
                side,
                kind: DEFS[d as usize].kind,
                name: DEFS[d as usize].name,
                ply: u32::from(ply),
                mv: mv?,
                implied: matcher.implied(f, d),
                def: d,
            })
        }));
    }
    let has_rook = |c: Color| {
        start
            .board()
            .iter()
            .flatten()
            .any(|p| p.color == c && matches!(p.kind, PieceKind::Rook | PieceKind::Dragon))
    };
    let both_rooks = startpos || (has_rook(Color::Black) && has_rook(Color::White));
    let reason = label::label(
        &items,
        both_rooks,
        handicap == Handicap::Even,
        played.into(),
    );
    Recognised {
        opening: Some(reason.label),
        reason: Some(reason),
        items,
    }
}
/// The game's opening label as the tables count it: the 戦型 header's (its first name
/// kifudex knows, in the canonical spelling, else the value as written), else the one
/// recognised from the moves.
pub fn game_label<'a>(header: Option<&'a str>, recognised: Option<&'a str>) -> Option<&'a str> {
    match header {
        Some(h) => Some(
            names::split_header(h)
                .iter()
                .find_map(|n| names::canonical(n))
                .unwrap_or(h),
        ),
        None => recognised,
    }
}
