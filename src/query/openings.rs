//! `openings`: games, results and score per recognised opening (the game label), strategy
//! and castle, or per pairing of the two sides' strategies, over the games a filter selects.

use std::collections::{BTreeMap, HashMap};

use crate::classify;
use crate::normalize::name_key;

use super::filter::GameFilter;
use super::search::search;
use super::{GameRowSummary, QueryError};
use crate::store::Store;

/// One line of the table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct OpeningRow {
    /// "opening" (the game's recognised label), "strategy", "castle" or "pair".
    pub kind: &'static str,
    pub name: String,
    /// Games (for strategies and castles: sides of games that played it).
    pub games: u64,
    pub sente_wins: u64,
    pub gote_wins: u64,
    pub draws: u64,
    /// Points (a win 1, a draw ½) per decided or drawn game, of sente for openings and pairs,
    /// of the side that played it for strategies and castles, of the player with `--player`.
    pub score: Option<f64>,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

#[derive(Default)]
struct Tally {
    games: u64,
    sente: u64,
    gote: u64,
    draws: u64,
    points2: u64,
    scored: u64,
    first: Option<String>,
    last: Option<String>,
}

impl Tally {
    /// Adds a game; `side` is the side whose score counts (0 sente, 1 gote).
    fn add(&mut self, g: &GameRowSummary, side: u8) {
        self.games += 1;
        match g.winner.as_deref() {
            Some("sente") => {
                self.sente += 1;
                self.scored += 1;
                self.points2 += if side == 0 { 2 } else { 0 };
            }
            Some("gote") => {
                self.gote += 1;
                self.scored += 1;
                self.points2 += if side == 1 { 2 } else { 0 };
            }
            Some("draw") => {
                self.draws += 1;
                self.scored += 1;
                self.points2 += 1;
            }
            _ => {}
        }
        if let Some(d) = &g.date {
            if self.first.as_ref().is_none_or(|f| d < f) {
                self.first = Some(d.clone());
            }
            if self.last.as_ref().is_none_or(|l| d > l) {
                self.last = Some(d.clone());
            }
        }
    }

    fn row(self, kind: &'static str, name: String) -> OpeningRow {
        OpeningRow {
            kind,
            name,
            games: self.games,
            sente_wins: self.sente,
            gote_wins: self.gote,
            draws: self.draws,
            score: (self.scored > 0).then(|| self.points2 as f64 / 2.0 / self.scored as f64),
            first_date: self.first,
            last_date: self.last,
        }
    }
}

/// The castles a static rook's side is named by in a pairing against a ranging rook.
const PAIRING_CASTLES: [&str; 5] = [
    "居飛車穴熊",
    "ミレニアム囲い",
    "左美濃",
    "エルモ囲い",
    "舟囲い",
];
const RANGING: [&str; 4] = ["中飛車", "四間飛車", "三間飛車", "向かい飛車"];

/// The name a side goes by in a pairing: its ranging rook's file; against a ranging rook, a
/// static rook's castle; else its first strategy's family; else 居飛車 (or その他 without
/// anything recognised).
fn pairing_name(items: &[(u8, &str, &str)], side: u8, opponent_ranges: bool) -> String {
    let mine: Vec<&(u8, &str, &str)> = items.iter().filter(|i| i.0 == side).collect();
    if let Some(r) = mine.iter().find(|i| RANGING.contains(&i.2)) {
        return r.2.to_string();
    }
    if opponent_ranges
        && let Some(c) = PAIRING_CASTLES
            .iter()
            .find(|c| mine.iter().any(|i| i.2 == **c))
    {
        return c.to_string();
    }
    match mine.iter().find(|i| i.1 == "strategy") {
        Some(s) => classify::family(s.2).to_string(),
        None if mine.is_empty() => "その他".to_string(),
        None => "居飛車".to_string(),
    }
}

/// The table over the games `filter` selects. With the filter's player, strategies and
/// castles of the player's side only, scores the player's. With `pairs`, one row per pairing
/// instead.
pub fn openings(
    store: &Store,
    filter: &GameFilter,
    pairs: bool,
) -> Result<Vec<OpeningRow>, QueryError> {
    let games = search(store, filter, None)?.rows;
    let player = filter.player.as_deref();
    let key = player.map(name_key);
    let player_side = |g: &GameRowSummary| -> Option<u8> {
        let k = key.as_ref()?;
        let plays = |n: &Option<String>| {
            n.as_deref()
                .is_some_and(|n| name_key(n).contains(k.as_str()))
        };
        if plays(&g.sente) {
            Some(0)
        } else if plays(&g.gote) {
            Some(1)
        } else {
            None
        }
    };
    let mut ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    ids.sort_unstable();
    let all = store.recognised_of(&ids)?;
    let mut by_game: HashMap<i64, Vec<(u8, &str, &str)>> = HashMap::new();
    for (id, side, kind, name) in &all {
        by_game
            .entry(*id)
            .or_default()
            .push((*side, kind.as_str(), name.as_str()));
    }
    let empty = Vec::new();
    let mut tallies: BTreeMap<(u8, String), Tally> = BTreeMap::new();
    for g in &games {
        let items = by_game.get(&g.id).unwrap_or(&empty);
        let me = player_side(g);
        if pairs {
            let ranges = |s: u8| items.iter().any(|i| i.0 == s && RANGING.contains(&i.2));
            let name = format!(
                "{} vs {}",
                pairing_name(items, 0, ranges(1)),
                pairing_name(items, 1, ranges(0))
            );
            tallies
                .entry((3, name))
                .or_default()
                .add(g, me.unwrap_or(0));
            continue;
        }
        if let Some(label) = &g.recognised {
            tallies
                .entry((0, label.clone()))
                .or_default()
                .add(g, me.unwrap_or(0));
        }
        for (side, kind, name) in items {
            if me.is_some_and(|m| m != *side) {
                continue;
            }
            let k = if *kind == "strategy" { 1 } else { 2 };
            tallies
                .entry((k, name.to_string()))
                .or_default()
                .add(g, *side);
        }
    }
    let mut rows: Vec<OpeningRow> = tallies
        .into_iter()
        .map(|((k, name), t)| {
            let kind = ["opening", "strategy", "castle", "pair"][k as usize];
            t.row(kind, name)
        })
        .collect();
    // By kind, then most played first, then by name.
    let order = |k: &str| {
        ["opening", "strategy", "castle", "pair"]
            .iter()
            .position(|x| *x == k)
    };
    rows.sort_by(|a, b| {
        (order(a.kind), std::cmp::Reverse(a.games), &a.name).cmp(&(
            order(b.kind),
            std::cmp::Reverse(b.games),
            &b.name,
        ))
    });
    Ok(rows)
}
