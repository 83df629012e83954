//! `openings`: games, results and score per opening (the game's label), strategy and castle,
//! per pairing of the two sides' strategies, or per year and label (the trends), over the
//! games a filter selects; with a player, the player's repertoire and results.

use rustc_hash::FxHashMap as HashMap;

use kifudex_classify as classify;
use kifudex_notation::normalize::name_key;

use super::QueryError;
use super::filter::GameFilter;
use super::years::date_plan;
use crate::store::labels::{Tally as StoredTally, TotalKey};
use crate::store::{Facts, OpeningGame, Store, winner_code};

/// What the rows of `openings` are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OpeningsBy {
    /// One row per opening, strategy and castle.
    #[default]
    Name,
    /// One row per pairing of the two sides' strategies.
    Pair,
    /// One row per year and opening, with the opening's share of the year's games.
    Year,
}

/// One line of the table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct OpeningRow {
    /// "opening" (the game's label), "strategy", "castle" or "pair".
    pub kind: &'static str,
    pub name: String,
    /// With [`OpeningsBy::Year`]: the year (`YYYY`), or None for games without a date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<String>,
    /// With [`OpeningsBy::Year`]: the share of the year's games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// Games (for strategies and castles: sides of games that played it).
    pub games: u64,
    pub sente_wins: u64,
    pub gote_wins: u64,
    pub draws: u64,
    /// With a player: the player's wins and losses (draws are `draws`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u64>,
    /// Points (a win 1, a draw ½) per decided or drawn game, of sente for openings and pairs,
    /// of the side that played it for strategies and castles, of the player with `--player`.
    pub score: Option<f64>,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

/// Games and their results, scored for one side.
#[derive(Default, Clone, Copy)]
struct Results {
    games: u64,
    sente: u64,
    gote: u64,
    draws: u64,
    /// Wins of the side whose score counts.
    won: u64,
    points2: u64,
    scored: u64,
}

impl Results {
    /// Adds a game won by `winner` (as [`winner_code`] gives it: 1 sente, 2 gote, 3 a
    /// draw, else unknown), scored for `side` (0 sente, 1 gote).
    fn add(&mut self, winner: u8, side: u8) {
        self.games += 1;
        match winner {
            1 | 2 => {
                if winner == 1 {
                    self.sente += 1;
                } else {
                    self.gote += 1;
                }
                self.scored += 1;
                let mine = u64::from(side + 1 == winner);
                self.won += mine;
                self.points2 += 2 * mine;
            }
            3 => {
                self.draws += 1;
                self.scored += 1;
                self.points2 += 1;
            }
            _ => {}
        }
    }

    fn add_all(&mut self, r: &Results) {
        self.games += r.games;
        self.sente += r.sente;
        self.gote += r.gote;
        self.draws += r.draws;
        self.won += r.won;
        self.points2 += r.points2;
        self.scored += r.scored;
    }
}

#[derive(Default)]
struct Tally {
    r: Results,
    first: Option<String>,
    last: Option<String>,
}

impl Tally {
    /// Adds a game; `side` is the side whose score counts (0 sente, 1 gote).
    fn add(&mut self, g: &OpeningGame<'_>, side: u8) {
        self.r.add(winner_code(g.winner), side);
        if let Some(d) = g.date {
            self.date(d);
        }
    }

    /// Widens the first and last dates to `d`.
    fn date(&mut self, d: &str) {
        if self.first.as_deref().is_none_or(|f| d < f) {
            self.first = Some(d.to_string());
        }
        if self.last.as_deref().is_none_or(|l| d > l) {
            self.last = Some(d.to_string());
        }
    }

    /// Adds a stored row's counts, scored for `side` (0 sente, 1 gote).
    fn add_counts(&mut self, t: &StoredTally, side: u8) {
        let (games, sente, gote, draws) = (
            t.games as u64,
            t.sente_wins as u64,
            t.gote_wins as u64,
            t.draws as u64,
        );
        let won = if side == 0 { sente } else { gote };
        self.r.add_all(&Results {
            games,
            sente,
            gote,
            draws,
            won,
            points2: 2 * won + draws,
            scored: sente + gote + draws,
        });
        if let Some(d) = &t.first_date
            && self.first.as_deref().is_none_or(|f| d.as_str() < f)
        {
            self.first = Some(d.clone());
        }
        if let Some(d) = &t.last_date
            && self.last.as_deref().is_none_or(|l| d.as_str() > l)
        {
            self.last = Some(d.clone());
        }
    }

    /// The row; `player`: with the player's wins and losses.
    fn row(self, kind: &'static str, name: String, player: bool) -> OpeningRow {
        let r = self.r;
        OpeningRow {
            kind,
            name,
            year: None,
            share: None,
            games: r.games,
            sente_wins: r.sente,
            gote_wins: r.gote,
            draws: r.draws,
            wins: player.then_some(r.won),
            losses: player.then(|| r.scored - r.won - r.draws),
            score: (r.scored > 0).then(|| r.points2 as f64 / 2.0 / r.scored as f64),
            first_date: self.first,
            last_date: self.last,
        }
    }
}

/// The table over the games `filter` selects. With the filter's player, strategies and
/// castles of the player's side only, scores, wins and losses the player's: the player's
/// repertoire. `by` chooses the rows.
pub fn openings(
    store: &Store,
    filter: &GameFilter,
    by: OpeningsBy,
) -> Result<Vec<OpeningRow>, QueryError> {
    let mut acc = Counts::default();
    // A filter of dates alone: the totals the writers keep per year answer for the years it
    // spans whole, and only the games of the (at most two) years it cuts are read.
    if let Some(plan) = date_plan(filter)
        && plan.years.0 <= plan.years.1
        && let Some(totals) = store.opening_totals()?
    {
        let (first, last) = plan.years;
        let totals = totals
            .into_iter()
            .filter(|((_, _, _, year), _)| {
                !plan.dated || (*year != 0 && (first..=last).contains(year))
            })
            .collect();
        add_totals(&mut acc, totals, by);
        for cut in &plan.cut {
            count_games(store, cut, by, &mut acc)?;
        }
    } else if let Some(facts) = store.held_facts() {
        // The games' facts the store holds (a server's): counted from memory.
        count_facts(store, &facts, filter, by, &mut acc)?;
    } else {
        count_games(store, filter, by, &mut acc)?;
    }
    Ok(finish(acc, by, filter.player.is_some()))
}

/// What the table counts: per kind (opening, strategy, castle, pair), per name; by year, per
/// year and label, and the year's games.
#[derive(Default)]
struct Counts {
    tallies: [HashMap<String, Tally>; 4],
    years: HashMap<(Option<String>, String), Tally>,
    year_games: HashMap<Option<String>, u64>,
}

/// Adds the games `filter` selects to `acc`, reading each game.
fn count_games(
    store: &Store,
    filter: &GameFilter,
    by: OpeningsBy,
    acc: &mut Counts,
) -> Result<(), QueryError> {
    let sel = filter.selection(store)?;
    let key = filter.player.as_deref().map(name_key);
    // Whether a name is the filter's player's, worked out once per name.
    let mut theirs: HashMap<String, bool> = HashMap::default();
    let mut plays = |n: Option<&str>| -> bool {
        let (Some(k), Some(n)) = (key.as_deref(), n) else {
            return false;
        };
        if let Some(&b) = theirs.get(n) {
            return b;
        }
        let b = name_key(n).contains(k);
        theirs.insert(n.to_string(), b);
        b
    };
    let Counts {
        tallies,
        years,
        year_games,
    } = acc;
    let mut tally = |kind: usize, name: &str, g: &OpeningGame<'_>, side: u8| {
        // Looked up by reference: most names are met again and again.
        match tallies[kind].get_mut(name) {
            Some(t) => t.add(g, side),
            None => tallies[kind]
                .entry(name.to_string())
                .or_default()
                .add(g, side),
        }
    };
    store.each_opening_game(&sel, |g| {
        let me = if plays(g.sente) {
            Some(0)
        } else if plays(g.gote) {
            Some(1)
        } else {
            None
        };
        let items: Vec<(u8, &str, &str)> = g
            .items
            .iter()
            .map(|i| (u8::from(i.side == "gote"), i.kind, i.name.as_str()))
            .collect();
        let label = classify::game_label(g.opening, g.label);
        match by {
            OpeningsBy::Pair => {
                let pairing: Vec<classify::PairingItem<'_>> = g
                    .items
                    .iter()
                    .map(|i| classify::PairingItem {
                        side: u8::from(i.side == "gote"),
                        strategy: i.kind == "strategy",
                        name: &i.name,
                        ply: i.ply,
                    })
                    .collect();
                tally(3, &classify::pairing(&pairing), g, me.unwrap_or(0));
            }
            OpeningsBy::Year => {
                let year = g.date.and_then(|d| d.get(..4)).map(str::to_string);
                *year_games.entry(year.clone()).or_default() += 1;
                if let Some(label) = label {
                    years
                        .entry((year, label.to_string()))
                        .or_default()
                        .add(g, me.unwrap_or(0));
                }
            }
            OpeningsBy::Name => {
                if let Some(label) = label {
                    tally(0, label, g, me.unwrap_or(0));
                }
                for &(side, kind, name) in &items {
                    if me.is_some_and(|m| m != side) {
                        continue;
                    }
                    tally(if kind == "strategy" { 1 } else { 2 }, name, g, side);
                }
            }
        }
    })?;
    Ok(())
}

/// A [`Tally`] of games from the facts: dates by rank, named at the end.
#[derive(Default, Clone, Copy)]
struct RankTally {
    r: Results,
    /// The first and last date's rank (0: none yet).
    first: u32,
    last: u32,
}

impl RankTally {
    /// As [`Tally::add`]: `winner` as [`FactGame::winner`](crate::store::FactGame) gives it.
    fn add(&mut self, winner: u8, date: u32, side: u8) {
        self.r.add(winner, side);
        if date != 0 {
            if self.first == 0 || date < self.first {
                self.first = date;
            }
            self.last = self.last.max(date);
        }
    }

    /// Adds to `t`, the dates named.
    fn add_to(&self, t: &mut Tally, facts: &Facts) {
        t.r.add_all(&self.r);
        for rank in [self.first, self.last] {
            if let Some(d) = facts.date(rank) {
                t.date(d);
            }
        }
    }
}

/// Adds the games `filter` selects to `acc` from `facts`: the counts of [`count_games`].
fn count_facts(
    store: &Store,
    facts: &Facts,
    filter: &GameFilter,
    by: OpeningsBy,
    acc: &mut Counts,
) -> Result<(), QueryError> {
    let sel = filter.selection(store)?;
    let chosen = facts.select(store, &sel)?;
    let key = filter.player.as_deref().map(name_key);
    // Whether a player is the filter's, worked out once per player.
    let mut theirs: HashMap<u32, bool> = HashMap::default();
    let mut plays = |p: Option<u32>| -> bool {
        let (Some(k), Some(p)) = (key.as_deref(), p) else {
            return false;
        };
        *theirs
            .entry(p)
            .or_insert_with(|| facts.player(p).is_some_and(|n| name_key(n).contains(k)))
    };
    // Labels and pairs by their text's number, strategies and castles by their name's; per
    // year and label; the year's games.
    let mut labels: HashMap<u32, RankTally> = HashMap::default();
    let mut pairs: HashMap<u32, RankTally> = HashMap::default();
    let mut names = vec![[RankTally::default(); 2]; facts.names()];
    let mut years: HashMap<(Option<&str>, u32), RankTally> = HashMap::default();
    let mut year_games: HashMap<Option<&str>, u64> = HashMap::default();
    for &i in &chosen {
        let g = facts.game(i as usize);
        let me = if key.is_none() {
            None
        } else if plays(g.sente) {
            Some(0)
        } else if plays(g.gote) {
            Some(1)
        } else {
            None
        };
        let score_side = me.unwrap_or(0);
        match by {
            OpeningsBy::Pair => {
                pairs
                    .entry(g.pairing)
                    .or_default()
                    .add(g.winner, g.date_rank, score_side)
            }
            OpeningsBy::Year => {
                let year = facts.date(g.date_rank).and_then(|d| d.get(..4));
                *year_games.entry(year).or_default() += 1;
                if g.shown != 0 {
                    years.entry((year, g.shown)).or_default().add(
                        g.winner,
                        g.date_rank,
                        score_side,
                    );
                }
            }
            OpeningsBy::Name => {
                if g.shown != 0 {
                    labels
                        .entry(g.shown)
                        .or_default()
                        .add(g.winner, g.date_rank, score_side);
                }
                for it in g.items {
                    let side = it.side();
                    if me.is_some_and(|m| m != side) {
                        continue;
                    }
                    names[it.name() as usize][usize::from(!it.strategy())].add(
                        g.winner,
                        g.date_rank,
                        side,
                    );
                }
            }
        }
    }
    let text = |n: u32| facts.text(n).unwrap_or_default().to_string();
    for (n, t) in &labels {
        t.add_to(acc.tallies[0].entry(text(*n)).or_default(), facts);
    }
    for (n, kinds) in names.iter().enumerate() {
        for (k, t) in kinds.iter().enumerate() {
            if t.r.games > 0 {
                let name = facts.name(n as u32).to_string();
                t.add_to(acc.tallies[1 + k].entry(name).or_default(), facts);
            }
        }
    }
    for (n, t) in &pairs {
        t.add_to(acc.tallies[3].entry(text(*n)).or_default(), facts);
    }
    for ((year, label), t) in &years {
        let key = (year.map(str::to_string), text(*label));
        t.add_to(acc.years.entry(key).or_default(), facts);
    }
    for (year, n) in year_games {
        *acc.year_games.entry(year.map(str::to_string)).or_default() += n;
    }
    Ok(())
}

/// The rows from the tallies, sorted: by year (undated last) then most played first then by
/// name for the trends; by kind then most played then by name otherwise.
fn finish(acc: Counts, by: OpeningsBy, player: bool) -> Vec<OpeningRow> {
    let Counts {
        tallies,
        years,
        year_games,
    } = acc;
    if by == OpeningsBy::Year {
        let mut rows: Vec<OpeningRow> = years
            .into_iter()
            .map(|((year, name), t)| {
                let all = year_games.get(&year).copied().unwrap_or(0);
                let mut row = t.row("opening", name, player);
                row.share = (all > 0).then(|| row.games as f64 / all as f64);
                row.year = year;
                row
            })
            .collect();
        // By year (undated last), most played first, then by name.
        rows.sort_by(|a, b| {
            (
                a.year.is_none(),
                &a.year,
                std::cmp::Reverse(a.games),
                &a.name,
            )
                .cmp(&(
                    b.year.is_none(),
                    &b.year,
                    std::cmp::Reverse(b.games),
                    &b.name,
                ))
        });
        return rows;
    }
    let mut rows: Vec<OpeningRow> = tallies
        .into_iter()
        .zip(["opening", "strategy", "castle", "pair"])
        .flat_map(|(names, kind)| {
            names
                .into_iter()
                .map(move |(name, t)| t.row(kind, name, player))
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
    rows
}

/// Adds stored totals (per kind, name, side and year) to `acc`: the same counts the games
/// give.
fn add_totals(acc: &mut Counts, totals: Vec<(TotalKey, StoredTally)>, by: OpeningsBy) {
    let Counts {
        tallies,
        years,
        year_games,
    } = acc;
    let year_of = |y: i64| (y > 0).then(|| format!("{y:04}"));
    for ((kind, name, side, year), t) in totals {
        // Whose score: sente's for a label, the side that played it for a name.
        let side = if side == 1 { 1 } else { 0 };
        let add = |tally: &mut Tally| tally.add_counts(&t, side);
        match (by, kind) {
            (OpeningsBy::Year, "all") => {
                *year_games.entry(year_of(year)).or_default() += t.games as u64
            }
            (OpeningsBy::Year, "opening") => add(years.entry((year_of(year), name)).or_default()),
            (OpeningsBy::Year, _) => {}
            (OpeningsBy::Pair, "pair") => add(tallies[3].entry(name).or_default()),
            (OpeningsBy::Pair, _) => {}
            (_, "opening") => add(tallies[0].entry(name).or_default()),
            (_, "strategy") => add(tallies[1].entry(name).or_default()),
            (_, "castle") => add(tallies[2].entry(name).or_default()),
            _ => {}
        }
    }
}
