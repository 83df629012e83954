//! Players: each player's games and results per side, first and last date and most played
//! openings, over the games a filter takes; a player's head-to-head record with another.
//!
//! Names are grouped as search matches them: the spellings of one name with and without
//! titles, ranks or spaces (羽生善治, 羽生 善治竜王, 羽生善治王位) are one player, shown by the
//! spelling most of their games use.

use std::collections::HashMap;

use crate::store::{Facts, PlayerGame, PlayerTotals, Side, Store, winner_word};
use kifudex_notation::normalize::{name_key, strip_titles};

use super::QueryError;
use super::filter::GameFilter;
use super::years::date_plan;

/// Wins, draws and losses (games of unknown result are counted in `games` only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// One player's line.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PlayerRow {
    pub name: String,
    /// Other spellings of the name met in the games.
    pub spellings: Vec<String>,
    pub games: u64,
    pub sente: Record,
    pub gote: Record,
    /// Points (a win 1, a draw ½) per game with a known result.
    pub score: Option<f64>,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
    /// The openings of their games, most played first (at most five).
    pub openings: Vec<(String, u64)>,
    /// Their games with evaluations, and their moves there as the evaluations judge them.
    pub evaluated_games: u64,
    /// The average loss of evaluation per move, capped as lichess caps it (see
    /// `kifudex_evals::drops::MoveDrop::capped_loss`); null without evaluated moves.
    pub eval_loss: Option<f64>,
    /// Their moves whose drop was 300 or more (what `kifudex blunders` lists by default).
    pub blunders: u64,
}

#[derive(Default)]
struct Acc {
    names: HashMap<i64, u64>,
    sente: Record,
    gote: Record,
    first: Option<String>,
    last: Option<String>,
    openings: HashMap<String, u64>,
    evals: super::evals::PlayerEvals,
}

impl Acc {
    fn date(&mut self, d: &str) {
        if self.first.as_deref().is_none_or(|f| d < f) {
            self.first = Some(d.to_string());
        }
        if self.last.as_deref().is_none_or(|l| d > l) {
            self.last = Some(d.to_string());
        }
    }

    fn opening(&mut self, o: String, n: u64) {
        *self.openings.entry(o).or_default() += n;
    }

    /// One game of opening `o` (without a copy of the name when it was counted before).
    fn opening_ref(&mut self, o: &str) {
        match self.openings.get_mut(o) {
            Some(n) => *n += 1,
            None => {
                self.openings.insert(o.to_string(), 1);
            }
        }
    }
}

/// What the count reads of a game.
struct View<'a> {
    sente: Option<i64>,
    gote: Option<i64>,
    date: Option<&'a str>,
    winner: Option<&'a str>,
    /// The header's opening, or the recognised label when the header has none.
    opening: Option<&'a str>,
}

/// Adds games to the players' groups: `wanted` the players asked for (all when None), `side`
/// the side asked for.
struct Count<'a> {
    groups: &'a mut Vec<Acc>,
    group_of: &'a HashMap<i64, usize>,
    wanted: Option<&'a std::collections::HashSet<i64>>,
    side: Option<Side>,
}

impl Count<'_> {
    /// The stored totals of each player.
    fn totals(&mut self, totals: Vec<PlayerTotals>) {
        for t in totals {
            if self.wanted.is_some_and(|w| !w.contains(&t.player)) {
                continue;
            }
            let Some(&gi) = self.group_of.get(&t.player) else {
                continue;
            };
            let a = &mut self.groups[gi];
            for (si, s) in t.sides.iter().enumerate() {
                let sente = si == 0;
                if s.games == 0 || self.side.is_some_and(|x| (x == Side::Sente) != sente) {
                    continue;
                }
                *a.names.entry(t.player).or_default() += s.games;
                let r = if sente { &mut a.sente } else { &mut a.gote };
                r.games += s.games;
                r.wins += s.wins;
                r.draws += s.draws;
                r.losses += s.losses;
                for d in [&s.first_date, &s.last_date].into_iter().flatten() {
                    a.date(d);
                }
            }
            for (side, o, n) in t.openings {
                if self.side.is_some_and(|x| (x == Side::Sente) != (side == 0)) {
                    continue;
                }
                a.opening(o, n);
            }
        }
    }

    /// Games read one by one.
    fn games(&mut self, games: Vec<PlayerGame>) {
        self.views(games.iter().map(|g| View {
            sente: g.sente,
            gote: g.gote,
            date: g.date.as_deref(),
            winner: g.winner.as_deref(),
            opening: g.opening.as_deref(),
        }))
    }

    /// Games as the facts hold them.
    fn facts(&mut self, facts: &Facts, chosen: &[u32]) {
        self.views(chosen.iter().map(|&i| {
            let g = facts.game(i as usize);
            View {
                sente: g.sente.map(i64::from),
                gote: g.gote.map(i64::from),
                date: facts.date(g.date_rank),
                winner: winner_word(g.winner),
                opening: g.opening.or(g.label),
            }
        }))
    }

    fn views<'a>(&mut self, games: impl Iterator<Item = View<'a>>) {
        for g in games {
            for (id, sente) in [(g.sente, true), (g.gote, false)] {
                let Some(id) = id else { continue };
                if self.wanted.is_some_and(|w| !w.contains(&id)) {
                    continue;
                }
                // `--as gote`: the player's games as gote only (a game against a namesake has
                // both).
                if self.side.is_some_and(|s| (s == Side::Sente) != sente) {
                    continue;
                }
                let Some(&gi) = self.group_of.get(&id) else {
                    continue;
                };
                let a = &mut self.groups[gi];
                *a.names.entry(id).or_default() += 1;
                let r = if sente { &mut a.sente } else { &mut a.gote };
                r.games += 1;
                match (g.winner, sente) {
                    (Some("sente"), true) | (Some("gote"), false) => r.wins += 1,
                    (Some("sente"), false) | (Some("gote"), true) => r.losses += 1,
                    (Some("draw"), _) => r.draws += 1,
                    _ => {}
                }
                if let Some(d) = g.date {
                    a.date(d);
                }
                if let Some(o) = g.opening {
                    a.opening_ref(o);
                }
            }
        }
    }
}

/// The players of the games `filter` takes (those matching `name` when given), most games
/// first, then by name.
pub fn players(
    store: &Store,
    filter: &GameFilter,
    name: Option<&str>,
) -> Result<Vec<PlayerRow>, QueryError> {
    let mut filter = filter.clone();
    if let Some(n) = name {
        if filter.player.is_some() {
            return Err(QueryError::BadArgument(
                "give the player once: as NAME or as --player".to_string(),
            ));
        }
        filter.player = Some(n.to_string());
    }
    let wanted: Option<std::collections::HashSet<i64>> = match &filter.player {
        Some(q) => {
            let key = name_key(q);
            Some(
                store
                    .players_matching(&key, &strip_titles(&key))?
                    .into_iter()
                    .collect(),
            )
        }
        None => None,
    };
    let names = store.players()?;
    // Player id → the group of its spellings (by index), and each group's accumulator.
    let mut group_of: HashMap<i64, usize> = HashMap::with_capacity(names.len());
    let mut group_index: HashMap<String, usize> = HashMap::new();
    let mut player_name: HashMap<i64, String> = HashMap::with_capacity(names.len());
    let mut groups: Vec<Acc> = Vec::new();
    for p in names {
        let g = if p.bare.is_empty() { p.key } else { p.bare };
        let next = group_index.len();
        let i = *group_index.entry(g).or_insert(next);
        if i == groups.len() {
            groups.push(Acc::default());
        }
        group_of.insert(p.id, i);
        player_name.insert(p.id, p.name);
    }
    // Over every game (a name and a side aside), the totals the writer keeps answer without
    // reading the games; over a span of dates, the totals of the years it spans whole and the
    // games of the years it cuts.
    let dates_only = GameFilter {
        player: None,
        side: None,
        ..filter.clone()
    };
    let every_game = dates_only.is_empty();
    let plan = if every_game {
        None
    } else {
        date_plan(&dates_only).filter(|p| p.years.0 <= p.years.1)
    };
    // The games the facts selected, when they did.
    let facts = store.held_facts();
    let mut chosen: Option<Vec<u32>> = None;
    let mut count = Count {
        groups: &mut groups,
        group_of: &group_of,
        wanted: wanted.as_ref(),
        side: filter.side,
    };
    if every_game {
        count.totals(store.player_totals(None)?);
    } else if let Some(plan) = plan {
        count.totals(store.player_totals(Some(plan.years))?);
        for cut in plan.cut {
            let cut = GameFilter {
                player: filter.player.clone(),
                side: filter.side,
                ..cut
            };
            count.games(store.player_games(&cut.selection(store)?)?);
        }
    } else if let Some(facts) = &facts {
        // The games' facts the store holds (a server's): the games read from memory.
        chosen = Some(facts.select(store, &filter.selection(store)?)?);
        count.facts(facts, chosen.as_deref().unwrap_or_default());
    } else {
        count.games(store.player_games(&filter.selection(store)?)?);
    }
    // Their moves as the evaluations judge them, over the same games (none to select when
    // no game has evaluations).
    let games = if every_game || store.evals_span()?.is_none() {
        None
    } else if let (Some(facts), Some(chosen)) = (&facts, &chosen) {
        Some(facts.game_set(chosen))
    } else {
        Some(store.select_games(&filter.selection(store)?, None)?)
    };
    for (id, e) in super::evals::player_evals(store, games.as_ref(), filter.side)? {
        if wanted.as_ref().is_some_and(|w| !w.contains(&id)) {
            continue;
        }
        if let Some(&gi) = group_of.get(&id) {
            groups[gi].evals.add(&e);
        }
    }
    let acc = groups.into_iter().filter(|a| !a.names.is_empty());
    let mut rows: Vec<PlayerRow> = acc
        .map(|a| {
            let mut spellings: Vec<(u64, &String)> = a
                .names
                .iter()
                .map(|(id, n)| (*n, &player_name[id]))
                .collect();
            spellings.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(y.1)));
            let mut openings: Vec<(String, u64)> = a.openings.into_iter().collect();
            openings.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
            openings.truncate(5);
            let (w, d, l) = (
                a.sente.wins + a.gote.wins,
                a.sente.draws + a.gote.draws,
                a.sente.losses + a.gote.losses,
            );
            let decided = w + d + l;
            PlayerRow {
                name: spellings[0].1.clone(),
                spellings: spellings[1..].iter().map(|s| s.1.clone()).collect(),
                games: a.sente.games + a.gote.games,
                sente: a.sente,
                gote: a.gote,
                score: (decided > 0).then(|| (w as f64 + d as f64 / 2.0) / decided as f64),
                first_date: a.first,
                last_date: a.last,
                openings,
                evaluated_games: a.evals.games,
                eval_loss: a.evals.average_loss(),
                blunders: a.evals.blunders,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
    Ok(rows)
}
