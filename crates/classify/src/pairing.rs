//! The pairing of a game: what each side's play is called when the two are named together
//! (四間飛車 vs 居飛車穴熊, 矢倉 vs 矢倉), as `openings --pairs` lists them.
//!
//! A side goes by its ranging rook's file (中飛車, 四間飛車, 三間飛車, 向かい飛車), the
//! earliest it ranged to; against a ranging rook, a static rook's side goes by its castle
//! (居飛車穴熊, ミレニアム囲い, 左美濃, エルモ囲い, 舟囲い, in that order of precedence);
//! otherwise by the family of its earliest strategy; and by 居飛車 when only castles were
//! recognised, その他 when nothing was.
//!
//! The answer depends on the names and their plies only, not on the order they are listed
//! in: the writers count a game's pairing from what they recognised, and a count from the
//! stored games must give the same rows.

use crate::names;

/// The castles a static rook's side is named by in a pairing against a ranging rook, in
/// order of precedence.
const PAIRING_CASTLES: [&str; 5] = [
    "居飛車穴熊",
    "ミレニアム囲い",
    "左美濃",
    "エルモ囲い",
    "舟囲い",
];

/// The ranging rooks a side is named by, one per file.
const RANGING: [&str; 4] = ["中飛車", "四間飛車", "三間飛車", "向かい飛車"];

/// One recognised name of a game, ancestors included: side (0 sente, 1 gote), whether it
/// is a strategy (else a castle), name, and the ply at which it held first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairingItem<'a> {
    pub side: u8,
    pub strategy: bool,
    pub name: &'a str,
    pub ply: u32,
}

/// The game's pairing, `"sente's name vs gote's name"`.
pub fn pairing(items: &[PairingItem<'_>]) -> String {
    let ranging = [ranged(items, 0), ranged(items, 1)];
    format!(
        "{} vs {}",
        side_name(items, 0, ranging[0], ranging[1].is_some()),
        side_name(items, 1, ranging[1], ranging[0].is_some())
    )
}

/// The earliest ranging rook of `side` (on a tie, the first in [`RANGING`]).
fn ranged(items: &[PairingItem<'_>], side: u8) -> Option<&'static str> {
    items
        .iter()
        .filter(|i| i.side == side && i.strategy)
        .filter_map(|i| Some((i.ply, RANGING.iter().position(|r| *r == i.name)?)))
        .min()
        .map(|(_, r)| RANGING[r])
}

fn side_name(
    items: &[PairingItem<'_>],
    side: u8,
    ranging: Option<&'static str>,
    opponent_ranges: bool,
) -> &'static str {
    if let Some(r) = ranging {
        return r;
    }
    let mine = || items.iter().filter(move |i| i.side == side);
    if opponent_ranges
        && let Some(c) = PAIRING_CASTLES
            .iter()
            .find(|c| mine().any(|i| !i.strategy && i.name == **c))
    {
        return c;
    }
    // The earliest strategy; on a tie, the first among the definitions.
    let first = mine()
        .filter(|i| i.strategy)
        .min_by_key(|i| (i.ply, names::place(i.name), i.name));
    match first {
        Some(s) => names::family(s.name),
        None if mine().next().is_none() => "その他",
        None => "居飛車",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(side: u8, strategy: bool, name: &str, ply: u32) -> PairingItem<'_> {
        PairingItem {
            side,
            strategy,
            name,
            ply,
        }
    }

    #[test]
    fn a_ranging_rook_against_a_static_rooks_castle() {
        let items = [
            item(0, true, "居飛車", 2),
            item(0, false, "舟囲い", 20),
            item(0, false, "居飛車穴熊", 40),
            item(1, true, "振り飛車", 10),
            item(1, true, "四間飛車", 10),
            item(1, false, "美濃囲い", 24),
        ];
        assert_eq!(pairing(&items), "居飛車穴熊 vs 四間飛車");
        // Listed in another order, the same pairing.
        let mut reversed = items;
        reversed.reverse();
        assert_eq!(pairing(&reversed), "居飛車穴熊 vs 四間飛車");
    }

    #[test]
    fn the_earliest_ranging_file_names_the_side() {
        let items = [
            item(0, true, "三間飛車", 30),
            item(0, true, "中飛車", 8),
            item(1, true, "四間飛車", 9),
        ];
        assert_eq!(pairing(&items), "中飛車 vs 四間飛車");
    }

    #[test]
    fn static_rooks_go_by_their_strategys_family() {
        let items = [item(0, true, "矢倉", 20), item(1, false, "美濃囲い", 30)];
        // Gote has only a castle: 居飛車. Nobody ranged, so sente's castle is not asked.
        assert_eq!(pairing(&items), "矢倉 vs 居飛車");
        assert_eq!(pairing(&[]), "その他 vs その他");
    }
}
