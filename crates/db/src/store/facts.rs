//! What the explorer's panels count of every game, held in memory: date, result, players,
//! event, handicap, plies, the labels, the pairing and the names recognised for each side,
//! and each player's games.
//!
//! The panels (`openings`, `players`) count over the games a filter selects. Read from the
//! database, that is a scan of the games table and a decoding of every selected game's
//! recognitions: seconds at a million games. A server answers many such questions about one
//! database, so it reads the facts once ([`Store::facts`], a scan of the same cost) and hands
//! them to its connections ([`Store::hold_facts`]), which then select and count from memory
//! ([`Facts::select`]): about 120 bytes per game.
//!
//! [`Facts::select`] picks the same games as the filter's SQL ([`Selection`]). The conditions
//! the facts do not hold (a file's path, evaluations, the way a game ended) are asked of the
//! database, and their answer is combined with the rest.

use rustc_hash::FxHashMap;

use super::openings::{decode, name_table, named, text_at, with_ancestors};
use super::select::{Cond, GameSet, LabelSource, Selection, Side, TextColumn};
use super::{Store, StoreError};

/// A recognised name of one side of a game, packed: ply (14 bits), name (15 bits), side,
/// kind and whether it was stored (not only implied as an ancestor).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FactItem(u32);

const PLY_BITS: u32 = 14;
const NAME_BITS: u32 = 15;

impl FactItem {
    fn new(side: u8, strategy: bool, stored: bool, name: u32, ply: u32) -> Option<FactItem> {
        if ply >= 1 << PLY_BITS || name >= 1 << NAME_BITS {
            return None;
        }
        Some(FactItem(
            ply | name << PLY_BITS
                | u32::from(side) << 29
                | u32::from(strategy) << 30
                | u32::from(stored) << 31,
        ))
    }

    /// 0 sente, 1 gote.
    pub fn side(self) -> u8 {
        (self.0 >> 29 & 1) as u8
    }

    /// A strategy (else a castle).
    pub fn strategy(self) -> bool {
        self.0 >> 30 & 1 == 1
    }

    /// Stored for the game, not only implied by a name stored.
    fn stored(self) -> bool {
        self.0 >> 31 == 1
    }

    /// The name's number ([`Facts::name`]).
    pub fn name(self) -> u32 {
        self.0 >> PLY_BITS & ((1 << NAME_BITS) - 1)
    }

    pub fn ply(self) -> u32 {
        self.0 & ((1 << PLY_BITS) - 1)
    }
}

/// Strings by number, 0 for none (SQL's NULL).
#[derive(Default)]
struct Strings {
    list: Vec<String>,
    index: FxHashMap<String, u32>,
}

impl Strings {
    fn new() -> Strings {
        Strings {
            list: vec![String::new()],
            index: FxHashMap::default(),
        }
    }

    fn add(&mut self, s: Option<&str>) -> u32 {
        let Some(s) = s else { return 0 };
        if let Some(&n) = self.index.get(s) {
            return n;
        }
        let n = self.list.len() as u32;
        self.list.push(s.to_string());
        self.index.insert(s.to_string(), n);
        n
    }

    fn get(&self, n: u32) -> Option<&str> {
        (n != 0).then(|| self.list[n as usize].as_str())
    }

    fn find(&self, s: &str) -> Option<u32> {
        self.index.get(s).copied()
    }
}

/// The code of a game's stored result (`games.winner`): 0 unknown, 1 sente won, 2 gote
/// won, 3 draw, 4 any other word.
pub fn winner_code(w: Option<&str>) -> u8 {
    match w {
        None => 0,
        Some("sente") => 1,
        Some("gote") => 2,
        Some("draw") => 3,
        Some(_) => 4,
    }
}

/// The stored word of a result's code ([`winner_code`]); None for unknown (and for 4, which
/// the facts never hold).
pub fn winner_word(code: u8) -> Option<&'static str> {
    match code {
        1 => Some("sente"),
        2 => Some("gote"),
        3 => Some("draw"),
        _ => None,
    }
}

/// Every game's facts, in id order.
pub struct Facts {
    ids: Vec<i64>,
    /// The distinct dates in order, `dates[0]` standing for none: a game's date is its rank.
    dates: Vec<String>,
    date: Vec<u32>,
    winner: Vec<u8>,
    plies: Vec<u32>,
    sente: Vec<u32>,
    gote: Vec<u32>,
    /// The 戦型 header, the label recognised from the moves and the game's label (its
    /// `game_labels` name), the event and the handicap, by number in `text`.
    opening: Vec<u32>,
    label: Vec<u32>,
    game_label: Vec<u32>,
    event: Vec<u32>,
    handicap: Vec<u32>,
    /// The label the panels show (`classify::game_label` of the header and the recognised
    /// label) and the pairing of the two sides' strategies (`classify::pairing`).
    shown: Vec<u32>,
    pairing: Vec<u32>,
    text: Strings,
    /// Player names by player id.
    players: FxHashMap<u32, String>,
    /// Player `p`'s games are `player_games[player_starts[p]..player_starts[p + 1]]`, in
    /// id order.
    player_starts: Vec<u32>,
    player_games: Vec<u32>,
    /// The names items refer to.
    names: Strings,
    /// Game `i`'s items are `items[starts[i]..starts[i + 1]]`, as
    /// [`Store::recognised`](super::Store::recognised) lists them.
    starts: Vec<u32>,
    items: Vec<FactItem>,
}

/// One game of the facts, as [`Facts::game`] gives it.
pub struct FactGame<'a> {
    pub id: i64,
    /// The date's rank among the dates (0: none): ranks compare as the dates do.
    pub date_rank: u32,
    /// 0 unknown, 1 sente won, 2 gote won, 3 draw.
    pub winner: u8,
    pub sente: Option<u32>,
    pub gote: Option<u32>,
    /// The 戦型 header's value and the label recognised from the moves.
    pub opening: Option<&'a str>,
    pub label: Option<&'a str>,
    /// The label the panels show and the pairing, by number ([`Facts::text`]; 0: none).
    pub shown: u32,
    pub pairing: u32,
    pub items: &'a [FactItem],
}

impl Facts {
    /// The number of games.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Game number `i` (in id order).
    pub fn game(&self, i: usize) -> FactGame<'_> {
        let player = |p: u32| (p != 0).then_some(p);
        FactGame {
            id: self.ids[i],
            date_rank: self.date[i],
            winner: self.winner[i],
            sente: player(self.sente[i]),
            gote: player(self.gote[i]),
            opening: self.text.get(self.opening[i]),
            label: self.text.get(self.label[i]),
            shown: self.shown[i],
            pairing: self.pairing[i],
            items: self.items_of(i),
        }
    }

    /// Game number `i`'s recognised names.
    fn items_of(&self, i: usize) -> &[FactItem] {
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Game number `i`'s date rank and id.
    pub fn date_and_id(&self, i: usize) -> (u32, i64) {
        (self.date[i], self.ids[i])
    }

    /// The date of rank `rank` (None for 0).
    pub fn date(&self, rank: u32) -> Option<&str> {
        (rank != 0).then(|| self.dates[rank as usize].as_str())
    }

    /// The text of a number of [`FactGame`] (None for 0).
    pub fn text(&self, n: u32) -> Option<&str> {
        self.text.get(n)
    }

    /// How many names items refer to (numbers below this).
    pub fn names(&self) -> usize {
        self.names.list.len()
    }

    /// The name of an item's number.
    pub fn name(&self, n: u32) -> &str {
        self.names.get(n).unwrap_or("")
    }

    /// The name of player `id`.
    pub fn player(&self, id: u32) -> Option<&str> {
        self.players.get(&id).map(String::as_str)
    }

    /// The ids of the games `chosen`, as a set.
    pub fn game_set(&self, chosen: &[u32]) -> GameSet {
        GameSet::from_ids(chosen.iter().map(|&i| self.ids[i as usize]))
    }

    /// The distinct values of a text column, as [`Store::distinct_values`] gives them (in
    /// another order); None for a column the facts do not hold.
    pub fn distinct_values(&self, column: TextColumn) -> Option<Vec<String>> {
        let col = match column {
            TextColumn::Event => &self.event,
            TextColumn::Opening => &self.opening,
            TextColumn::Handicap => &self.handicap,
            TextColumn::Terminal => return None,
        };
        let mut seen = vec![false; self.text.list.len()];
        for &v in col {
            seen[v as usize] = true;
        }
        Some(
            (1..seen.len())
                .filter(|&n| seen[n])
                .map(|n| self.text.list[n].clone())
                .collect(),
        )
    }

    /// The games (numbers for [`Facts::game`], in id order) that `sel` picks: the same as
    /// [`Store::select_games`]. Conditions the facts do not hold are asked of `store`.
    pub fn select(&self, store: &Store, sel: &Selection) -> Result<Vec<u32>, StoreError> {
        let mut tests = Vec::new();
        let mut rest = Vec::new();
        for c in &sel.conds {
            match self.test(c) {
                Some(t) => tests.push(t),
                None => rest.push(c.clone()),
            }
        }
        let asked = if rest.is_empty() {
            None
        } else {
            Some(store.select_games_sql(&Selection { conds: rest }, None)?)
        };
        // A condition on players looks at their games only.
        let players = tests.iter().find_map(|t| match t {
            Test::Player(_, p) | Test::Pair(_, p, _) | Test::PlayerWon(_, p) => Some(p),
            Test::PlayerRecognised(p, _) => Some(p),
            _ => None,
        });
        let keep = |i: usize| {
            asked.as_ref().is_none_or(|s| s.contains(self.ids[i]))
                && tests.iter().all(|t| self.holds(t, i))
        };
        Ok(match players {
            Some(p) => {
                let mut games: Vec<u32> = p
                    .values()
                    .flat_map(|p| {
                        let (a, b) = (
                            self.player_starts[p as usize],
                            self.player_starts[p as usize + 1],
                        );
                        self.player_games[a as usize..b as usize].iter().copied()
                    })
                    .collect();
                games.sort_unstable();
                games.dedup();
                games.retain(|&i| keep(i as usize));
                games
            }
            None => (0..self.ids.len() as u32)
                .filter(|&i| keep(i as usize))
                .collect(),
        })
    }

    /// The test of `c` on the facts; None when they do not hold what it asks.
    fn test(&self, c: &Cond) -> Option<Test> {
        let ids = |v: &[i64]| {
            let ids = v.iter().filter_map(|&p| u32::try_from(p).ok());
            // Ids with games are below the bound of the index.
            Members::of(ids, self.player_starts.len() - 1)
        };
        let texts = |strings: &Strings, v: &[String]| {
            Members::of(v.iter().filter_map(|s| strings.find(s)), strings.list.len())
        };
        Some(match c {
            Cond::Player { side, players } => Test::Player(*side, ids(players)),
            Cond::Pair { a, b, side } => Test::Pair(*side, ids(a), ids(b)),
            Cond::PlayerWon { players, side } => Test::PlayerWon(*side, ids(players)),
            Cond::Text { column, values } => {
                let col = match column {
                    TextColumn::Event => Column::Event,
                    TextColumn::Opening => Column::Opening,
                    TextColumn::Handicap => Column::Handicap,
                    TextColumn::Terminal => return None,
                };
                Test::Text(col, texts(&self.text, values))
            }
            // Dates compare as text (SQLite's BINARY collation compares bytes, as `str`
            // does): the first rank at or after `d`, the last at or before `d~`.
            Cond::Since(d) => {
                let rank = self.dates[1..].partition_point(|x| x.as_str() < d.as_str()) + 1;
                Test::DateFrom(rank as u32)
            }
            Cond::Until(d) => {
                let bound = format!("{d}~");
                let rank = self.dates[1..].partition_point(|x| *x <= bound);
                Test::DateTo(rank as u32)
            }
            Cond::Winner(w) => match winner_code(Some(w)) {
                4 => return None,
                code => Test::Winner(code),
            },
            Cond::MinPlies(n) => Test::MinPlies(*n),
            Cond::MaxPlies(n) => Test::MaxPlies(*n),
            Cond::Opening {
                headers,
                names,
                from,
            } => match from {
                Some(LabelSource::Header) => {
                    Test::Text(Column::Opening, texts(&self.text, headers))
                }
                Some(LabelSource::Moves) => Test::Text(Column::Label, texts(&self.text, names)),
                None => Test::Text(Column::GameLabel, texts(&self.text, names)),
            },
            Cond::Recognised { names, side } => Test::Recognised(*side, texts(&self.names, names)),
            Cond::PlayerRecognised { players, names } => {
                Test::PlayerRecognised(ids(players), texts(&self.names, names))
            }
            Cond::Ids(v) => Test::Ids(GameSet::from_ids(v.iter().copied())),
            Cond::Nothing => Test::Nothing,
            Cond::Source(_) | Cond::Evaluated(_) | Cond::Swing(_) | Cond::EvalAt { .. } => {
                return None;
            }
        })
    }

    fn holds(&self, t: &Test, i: usize) -> bool {
        let (s, g) = (self.sente[i], self.gote[i]);
        let on = |side: Side| if side == Side::Sente { s } else { g };
        let won = |side: Side| self.winner[i] == if side == Side::Sente { 1 } else { 2 };
        let recognised = |side: Option<Side>, names: &Members| {
            self.items_of(i).iter().any(|it| {
                it.stored()
                    && side.is_none_or(|x| it.side() == u8::from(x == Side::Gote))
                    && names.contains(&it.name())
            })
        };
        match t {
            Test::Player(Some(side), set) => set.contains(&on(*side)),
            Test::Player(None, set) => set.contains(&s) || set.contains(&g),
            Test::Pair(side, a, b) => {
                let one = |x: Side| a.contains(&on(x)) && b.contains(&on(x.opponent()));
                match side {
                    Some(x) => one(*x),
                    None => one(Side::Sente) || one(Side::Gote),
                }
            }
            Test::PlayerWon(side, set) => {
                let one = |x: Side| won(x) && set.contains(&on(x));
                match side {
                    Some(x) => one(*x),
                    None => one(Side::Sente) || one(Side::Gote),
                }
            }
            Test::Text(col, set) => {
                let v = match col {
                    Column::Event => self.event[i],
                    Column::Opening => self.opening[i],
                    Column::Handicap => self.handicap[i],
                    Column::Label => self.label[i],
                    Column::GameLabel => self.game_label[i],
                };
                v != 0 && set.contains(&v)
            }
            Test::DateFrom(r) => self.date[i] != 0 && self.date[i] >= *r,
            Test::DateTo(r) => self.date[i] != 0 && self.date[i] <= *r,
            Test::Winner(code) => self.winner[i] == *code,
            Test::MinPlies(n) => self.plies[i] >= *n,
            Test::MaxPlies(n) => self.plies[i] <= *n,
            Test::Recognised(side, names) => recognised(*side, names),
            Test::PlayerRecognised(players, names) => {
                (players.contains(&s) && recognised(Some(Side::Sente), names))
                    || (players.contains(&g) && recognised(Some(Side::Gote), names))
            }
            Test::Ids(set) => set.contains(self.ids[i]),
            Test::Nothing => false,
        }
    }
}

/// A set of numbers below a bound, one flag each.
struct Members(Vec<bool>);

impl Members {
    fn of(values: impl Iterator<Item = u32>, bound: usize) -> Members {
        let mut flags = vec![false; bound];
        for v in values {
            // 0 stands for none, which no set holds.
            if v != 0 && (v as usize) < bound {
                flags[v as usize] = true;
            }
        }
        Members(flags)
    }

    fn contains(&self, v: &u32) -> bool {
        self.0.get(*v as usize).copied().unwrap_or(false)
    }

    fn values(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.0.len() as u32).filter(|&v| self.0[v as usize])
    }
}

#[derive(Clone, Copy)]
enum Column {
    Event,
    Opening,
    Handicap,
    Label,
    GameLabel,
}

/// A condition as the facts answer it: sets of numbers (players, strings, names).
enum Test {
    Player(Option<Side>, Members),
    Pair(Option<Side>, Members, Members),
    PlayerWon(Option<Side>, Members),
    Text(Column, Members),
    DateFrom(u32),
    DateTo(u32),
    Winner(u8),
    MinPlies(u32),
    MaxPlies(u32),
    Recognised(Option<Side>, Members),
    PlayerRecognised(Members, Members),
    Ids(GameSet),
    Nothing,
}

impl Facts {
    /// Each player's games, from the games' players.
    fn index_players(&mut self) {
        let bound = self
            .players
            .keys()
            .chain(&self.sente)
            .chain(&self.gote)
            .max();
        let bound = bound.map_or(1, |&m| m as usize + 1);
        let mut count = vec![0u32; bound + 1];
        let both = |i: usize| {
            let (s, g) = (self.sente[i], self.gote[i]);
            [s, if g == s { 0 } else { g }]
        };
        for i in 0..self.ids.len() {
            for p in both(i) {
                if p != 0 {
                    count[p as usize + 1] += 1;
                }
            }
        }
        for p in 1..count.len() {
            count[p] += count[p - 1];
        }
        let mut next = count.clone();
        let mut games = vec![0u32; *count.last().unwrap_or(&0) as usize];
        for i in 0..self.ids.len() {
            for p in both(i) {
                if p != 0 {
                    games[next[p as usize] as usize] = i as u32;
                    next[p as usize] += 1;
                }
            }
        }
        self.player_starts = count;
        self.player_games = games;
    }
}

impl Store {
    /// Hands this connection the games' facts (read by [`Store::facts`], by this connection
    /// or another of the same database, and as recent as what it sees), or takes them back:
    /// while it holds them, its selections ([`Store::select_games`],
    /// [`Store::search_games`], [`Store::distinct_values`]) and the panels' counts are
    /// answered from them. The holder answers for their being current.
    pub fn hold_facts(&self, facts: Option<std::sync::Arc<Facts>>) {
        *self.facts.borrow_mut() = facts;
    }

    /// The facts this connection holds.
    pub fn held_facts(&self) -> Option<std::sync::Arc<Facts>> {
        self.facts.borrow().clone()
    }

    /// Every game's facts, read in one scan of the games (in one read transaction: a
    /// consistent view). None when a value is beyond what the facts hold (a result other
    /// than sente, gote or draw, a player id beyond 32 bits, more than 32,767 names, a name recognised after ply 16,383): the
    /// database answers those questions itself.
    pub fn facts(&self) -> Result<Option<Facts>, StoreError> {
        let tx = self.conn.unchecked_transaction()?;
        let table = name_table(&tx)?;
        let mut f = Facts {
            ids: Vec::new(),
            dates: Vec::new(),
            date: Vec::new(),
            winner: Vec::new(),
            plies: Vec::new(),
            sente: Vec::new(),
            gote: Vec::new(),
            opening: Vec::new(),
            label: Vec::new(),
            game_label: Vec::new(),
            event: Vec::new(),
            handicap: Vec::new(),
            shown: Vec::new(),
            pairing: Vec::new(),
            text: Strings::new(),
            players: FxHashMap::default(),
            player_starts: Vec::new(),
            player_games: Vec::new(),
            names: Strings::new(),
            starts: vec![0],
            items: Vec::new(),
        };
        {
            let mut stmt = tx.prepare("SELECT id, name FROM players")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let Ok(id) = u32::try_from(r.get::<_, i64>(0)?) else {
                    return Ok(None);
                };
                f.players.insert(id, r.get(1)?);
            }
        }
        let mut dates = Strings::new();
        let mut stmt = tx.prepare(
            "SELECT g.id, g.date, g.winner, g.plies, g.sente_id, g.gote_id, g.opening, g.label,
                    gl.name, g.event, g.handicap, g.recognised
             FROM games g LEFT JOIN game_labels gl ON gl.id = g.label_id ORDER BY g.id",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let text = |i: usize| text_at(r, i);
            let player = |i: usize| -> Result<Option<u32>, StoreError> {
                Ok(match r.get::<_, Option<i64>>(i)? {
                    None => Some(0),
                    Some(p) => u32::try_from(p).ok().filter(|&p| p != 0),
                })
            };
            let (Some(sente), Some(gote)) = (player(4)?, player(5)?) else {
                return Ok(None);
            };
            f.ids.push(id);
            f.date.push(dates.add(text(1)?));
            // A result of another word (none is written) is left to the database.
            let winner = winner_code(text(2)?);
            if winner == 4 {
                return Ok(None);
            }
            f.winner.push(winner);
            f.plies
                .push(r.get::<_, i64>(3)?.clamp(0, u32::MAX as i64) as u32);
            f.sente.push(sente);
            f.gote.push(gote);
            let (opening, label) = (text(6)?, text(7)?);
            f.opening.push(f.text.add(opening));
            f.label.push(f.text.add(label));
            f.shown
                .push(f.text.add(kifudex_classify::game_label(opening, label)));
            f.game_label.push(f.text.add(text(8)?));
            f.event.push(f.text.add(text(9)?));
            f.handicap.push(f.text.add(text(10)?));
            let stored = decode(id, text(11)?)?;
            let rows = named(&table, &stored);
            for item in with_ancestors(&rows) {
                let side = u8::from(item.side == "gote");
                let was_stored = rows
                    .iter()
                    .any(|r| r.0 == i64::from(side) && r.1 == item.kind && r.2 == item.name);
                let name = f.names.add(Some(&item.name));
                let Some(packed) =
                    FactItem::new(side, item.kind == "strategy", was_stored, name, item.ply)
                else {
                    return Ok(None);
                };
                f.items.push(packed);
            }
            let Ok(end) = u32::try_from(f.items.len()) else {
                return Ok(None);
            };
            let start = *f.starts.last().expect("starts with 0") as usize;
            let pairing: Vec<kifudex_classify::PairingItem<'_>> = f.items[start..]
                .iter()
                .map(|i| kifudex_classify::PairingItem {
                    side: i.side(),
                    strategy: i.strategy(),
                    name: f.names.get(i.name()).unwrap_or(""),
                    ply: i.ply(),
                })
                .collect();
            let pairing = kifudex_classify::pairing(&pairing);
            f.pairing.push(f.text.add(Some(&pairing)));
            f.starts.push(end);
        }
        f.index_players();
        // Dates by rank: sorted, then each game's number replaced by its rank.
        let mut order: Vec<u32> = (1..dates.list.len() as u32).collect();
        order.sort_unstable_by(|a, b| dates.list[*a as usize].cmp(&dates.list[*b as usize]));
        let mut rank = vec![0u32; dates.list.len()];
        f.dates = vec![String::new()];
        for (r, &n) in order.iter().enumerate() {
            rank[n as usize] = r as u32 + 1;
            f.dates.push(std::mem::take(&mut dates.list[n as usize]));
        }
        for d in &mut f.date {
            *d = rank[*d as usize];
        }
        Ok(Some(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_keeps_every_field_and_refuses_what_does_not_fit() {
        for (side, strategy, stored, name, ply) in [
            (0, true, true, 0, 0),
            (1, false, false, 1, 1),
            (1, true, false, (1 << NAME_BITS) - 1, (1 << PLY_BITS) - 1),
            (0, false, true, 12_345, 200),
        ] {
            let it = FactItem::new(side, strategy, stored, name, ply).unwrap();
            assert_eq!(
                (it.side(), it.strategy(), it.stored(), it.name(), it.ply()),
                (side, strategy, stored, name, ply)
            );
        }
        assert_eq!(FactItem::new(0, true, true, 1 << NAME_BITS, 0), None);
        assert_eq!(FactItem::new(0, true, true, 0, 1 << PLY_BITS), None);
    }

    #[test]
    fn members_hold_the_numbers_given_below_the_bound_and_never_none() {
        let m = Members::of([0, 3, 5, 9, 5].into_iter(), 8);
        assert_eq!(m.values().collect::<Vec<_>>(), vec![3, 5]);
        assert!(m.contains(&3) && m.contains(&5));
        assert!(!m.contains(&0) && !m.contains(&9) && !m.contains(&4) && !m.contains(&100));
    }

    #[test]
    fn strings_number_none_as_zero_and_each_text_once() {
        let mut s = Strings::new();
        assert_eq!(s.add(None), 0);
        let a = s.add(Some("竜王戦"));
        let e = s.add(Some(""));
        assert_eq!(s.add(Some("竜王戦")), a);
        assert!(a != 0 && e != 0 && a != e);
        assert_eq!(
            (s.get(0), s.get(a), s.get(e)),
            (None, Some("竜王戦"), Some(""))
        );
        assert_eq!((s.find("竜王戦"), s.find("名人戦")), (Some(a), None));
    }
}
