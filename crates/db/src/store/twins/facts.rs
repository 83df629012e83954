//! What decides whether two records of one main line are one game: their players, the days
//! they name, the time of day they started and how they ended, read from their headers and
//! terminal; and the facts a source may give or lack (the headers one fills in for another).

use kifudex_notation::dates::{GameDate, read_date, read_date_span};
use kifudex_notation::headers::key_row;
use kifudex_notation::normalize::{name_key, strip_titles};
use kifudex_notation::{Record, TITLE_KEYS, TerminalKind};

use super::event::{event_form, same_event};

/// A fact of a game that a source may give or lack, and that a game missing it takes from
/// another of its sources. Each is the fact of a row of the header table
/// (`kifudex_notation::headers::KEY_TABLE`) but the handicap (the start, which twins share),
/// or the title.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    Sente,
    Gote,
    StartTime,
    EndTime,
    Event,
    Site,
    TimeControl,
    Opening,
    Title,
}

impl Fact {
    pub const ALL: [Fact; 9] = [
        Fact::Sente,
        Fact::Gote,
        Fact::StartTime,
        Fact::EndTime,
        Fact::Event,
        Fact::Site,
        Fact::TimeControl,
        Fact::Opening,
        Fact::Title,
    ];

    /// The name `game_fields` and the output use.
    pub fn name(self) -> &'static str {
        match self {
            Fact::Sente => "sente",
            Fact::Gote => "gote",
            Fact::StartTime => "start_time",
            Fact::EndTime => "end_time",
            Fact::Event => "event",
            Fact::Site => "site",
            Fact::TimeControl => "time_control",
            Fact::Opening => "opening",
            Fact::Title => "title",
        }
    }

    pub fn from_name(name: &str) -> Option<Fact> {
        Fact::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The KIF key of the fact's row of the header table.
    fn kif_key(self) -> &'static str {
        match self {
            Fact::Sente => "先手",
            Fact::Gote => "後手",
            Fact::StartTime => "開始日時",
            Fact::EndTime => "終了日時",
            Fact::Event => "棋戦",
            Fact::Site => "場所",
            Fact::TimeControl => "持ち時間",
            Fact::Opening => "戦型",
            Fact::Title => "表題",
        }
    }

    /// Whether a header under `key` (in any format's words) gives this fact.
    pub fn named_by(self, key: &str) -> bool {
        match self {
            Fact::Title => TITLE_KEYS.contains(&key),
            _ => key_row(key).is_some_and(|r| r.kif == self.kif_key()),
        }
    }

    /// The headers of `headers` that give this fact (with a value).
    pub fn given_by(self, headers: &[(String, String)]) -> impl Iterator<Item = &(String, String)> {
        headers
            .iter()
            .filter(move |(k, v)| self.named_by(k) && !v.trim().is_empty())
    }
}

/// The `game_fields` name of a terminal taken from another source.
pub const TERMINAL_FIELD: &str = "terminal";

/// What a record says that two records of one game cannot disagree on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// The players' names as compared: width, spaces, 旧字体, titles and ranks folded away.
    pub sente: Option<String>,
    pub gote: Option<String>,
    /// The first and last day the record names (a game of two days names both).
    pub days: Option<(GameDate, GameDate)>,
    /// The time of day it started (`09:00`), when the record gives one.
    pub time: Option<String>,
    /// The event as compared ([`event_form`]).
    pub event: Option<String>,
    pub terminal: Option<TerminalKind>,
    /// `sente`, `gote`, `draw`, or `None` when unknown.
    pub winner: Option<String>,
}

/// Where two records' facts disagree (none: they may be one game).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Conflicts {
    pub players: bool,
    pub date: bool,
    pub time: bool,
    pub event: bool,
    pub end: bool,
}

impl Conflicts {
    pub fn any(self) -> bool {
        self.players || self.date || self.time || self.event || self.end
    }

    /// The facts in conflict, in words: `players`, `date`, `time`, `event`, `end`.
    pub fn words(self) -> Vec<&'static str> {
        [
            (self.players, "players"),
            (self.date, "date"),
            (self.time, "time"),
            (self.event, "event"),
            (self.end, "end"),
        ]
        .into_iter()
        .filter_map(|(c, w)| c.then_some(w))
        .collect()
    }

    /// Both sets of conflicts together.
    pub fn or(self, other: Conflicts) -> Conflicts {
        Conflicts {
            players: self.players || other.players,
            date: self.date || other.date,
            time: self.time || other.time,
            event: self.event || other.event,
            end: self.end || other.end,
        }
    }
}

/// A player's name as twins compare it: the search key without titles and ranks (the key
/// itself when it is all title: 名人).
pub fn name_form(name: &str) -> String {
    let key = name_key(name);
    let bare = strip_titles(&key);
    if bare.is_empty() { key } else { bare }
}

impl Facts {
    /// The facts of a record's headers, terminal and winner.
    pub fn of(
        headers: &[(String, String)],
        terminal: Option<TerminalKind>,
        winner: Option<&str>,
    ) -> Facts {
        let rec = Record {
            headers: headers.to_vec(),
            ..Record::default()
        };
        Facts {
            sente: rec.sente().map(name_form),
            gote: rec.gote().map(name_form),
            days: days(&rec),
            time: rec.start_time().and_then(time_of_day),
            event: rec.event().and_then(event_form),
            terminal,
            winner: winner.map(str::to_string),
        }
    }

    /// Where these facts and `other`'s disagree: a fact one of them lacks agrees with
    /// anything; names compare in their [`name_form`]; days at the precision both give (a
    /// month holds its days, `2008/12/17-18` holds the 17th and the 18th); events when one
    /// holds the other ([`same_event`]: 竜王戦 is 第21期竜王戦七番勝負第5局); terminals agree
    /// when they are the same or give the same known winner.
    pub fn conflicts(&self, other: &Facts) -> Conflicts {
        let differ =
            |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(a), Some(b)) if a != b);
        Conflicts {
            players: differ(&self.sente, &other.sente) || differ(&self.gote, &other.gote),
            date: match (self.days, other.days) {
                (Some(a), Some(b)) => !overlap(a, b),
                _ => false,
            },
            time: differ(&self.time, &other.time),
            event: matches!((&self.event, &other.event), (Some(a), Some(b)) if !same_event(a, b)),
            end: match (self.terminal, other.terminal) {
                (Some(a), Some(b)) if a != b => {
                    self.winner.is_none() || other.winner.is_none() || self.winner != other.winner
                }
                _ => false,
            },
        }
    }
}

/// The days a record names: from its start (開始日時, 対局日, 対局日時; a range of days
/// included) to its end (終了日時), each as precise as the record gives it.
fn days(rec: &Record) -> Option<(GameDate, GameDate)> {
    let start = [rec.start_time(), rec.header(&["対局日時"])]
        .into_iter()
        .flatten()
        .find_map(read_date_span);
    let end = rec.end_time().and_then(read_date);
    match (start, end) {
        (Some((first, last)), Some(end)) if end > last => Some((first, end)),
        (Some(span), _) => Some(span),
        (None, Some(end)) => Some((end, end)),
        (None, None) => None,
    }
}

/// A date cut to a precision: 0 the year, 1 the month, 2 the day.
fn cut(d: GameDate, precision: u8) -> (u32, u32, u32) {
    let month = if precision >= 1 {
        d.month().unwrap_or(0)
    } else {
        0
    };
    let day = if precision >= 2 {
        d.day().unwrap_or(0)
    } else {
        0
    };
    (d.year(), month, day)
}

fn precision(d: GameDate) -> u8 {
    match (d.month(), d.day()) {
        (None, _) => 0,
        (Some(_), None) => 1,
        (Some(_), Some(_)) => 2,
    }
}

/// Whether two spans of days may share a day, at the precision all four dates give.
fn overlap(a: (GameDate, GameDate), b: (GameDate, GameDate)) -> bool {
    let p = [a.0, a.1, b.0, b.1]
        .into_iter()
        .map(precision)
        .min()
        .unwrap_or(0);
    cut(a.0, p) <= cut(b.1, p) && cut(b.0, p) <= cut(a.1, p)
}

/// The time of day in a start time (`2024/01/15 9:05:30` → `09:05`), seconds left out (not
/// every writer gives them).
pub fn time_of_day(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let colon = (1..b.len()).find(|&i| {
        b[i] == b':' && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    })?;
    let hour_start = (0..colon)
        .rev()
        .take_while(|&i| b[i].is_ascii_digit())
        .last()?;
    let hour: u32 = s[hour_start..colon].parse().ok()?;
    let minute: u32 = s[colon + 1..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .take(2)
        .fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    Some(format!("{hour:02}:{minute:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(headers: &[(&str, &str)]) -> Facts {
        let h: Vec<(String, String)> = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Facts::of(&h, Some(TerminalKind::Resign), Some("sente"))
    }

    /// The rule, fact by fact.
    #[test]
    fn what_conflicts() {
        let kif = facts(&[
            ("開始日時", "2008/12/17-18"),
            ("棋戦", "第21期竜王戦"),
            ("先手", "羽生善治名人"),
            ("後手", "渡辺明竜王"),
        ]);
        let csa = facts(&[
            ("N+", "羽生 善治"),
            ("N-", "渡辺明"),
            ("$START_TIME", "2008/12/17 09:00:00"),
        ]);
        assert!(!kif.conflicts(&csa).any(), "{:?}", kif.conflicts(&csa));
        assert!(!csa.conflicts(&kif).any());
        // 旧字体 and width.
        let old = facts(&[("先手", "羽生善治"), ("後手", "渡邊明")]);
        assert!(!old.conflicts(&kif).any());
        // A field one lacks matches anything.
        assert!(!facts(&[]).conflicts(&kif).any());
        let other = facts(&[("先手", "羽生善治"), ("後手", "佐藤康光")]);
        assert_eq!(other.conflicts(&kif).words(), ["players"]);
        let next_day = facts(&[("開始日時", "2008/12/19")]);
        assert_eq!(next_day.conflicts(&kif).words(), ["date"]);
        let second_day = facts(&[("開始日時", "2008/12/18 09:00")]);
        assert!(!second_day.conflicts(&kif).any());
        let month = facts(&[("開始日時", "2008/12")]);
        assert!(!month.conflicts(&csa).any());
        // The event: one holding the other is the same; 旧字体, width, spaces folded.
        let short_event = facts(&[("$EVENT", "竜王戦")]);
        assert!(!short_event.conflicts(&kif).any());
        let old_form = facts(&[("棋戦", "第２１期 龍王戦")]);
        assert!(!old_form.conflicts(&kif).any());
        let other_game = facts(&[("棋戦", "第22期竜王戦七番勝負第5局")]);
        assert!(!other_game.conflicts(&short_event).any());
        assert_eq!(other_game.conflicts(&kif).words(), ["event"]);
        let other_event = facts(&[("棋戦", "王将戦"), ("開始日時", "2008/12/20")]);
        assert_eq!(other_event.conflicts(&kif).words(), ["date", "event"]);
        let later = facts(&[("$START_TIME", "2008/12/17 13:00:00")]);
        assert_eq!(later.conflicts(&csa).words(), ["time"]);
        let mut aborted = facts(&[]);
        aborted.terminal = Some(TerminalKind::Abort);
        aborted.winner = None;
        assert_eq!(aborted.conflicts(&kif).words(), ["end"]);
        let mut time_up = facts(&[]);
        time_up.terminal = Some(TerminalKind::TimeUp);
        assert!(!time_up.conflicts(&kif).any(), "the same winner");
        let mut unended = facts(&[]);
        unended.terminal = None;
        unended.winner = None;
        assert!(!unended.conflicts(&kif).any());
    }

    #[test]
    fn facts_of_keys_in_every_format() {
        for key in ["棋戦", "$EVENT", "Event", "EVENT"] {
            assert!(Fact::Event.named_by(key), "{key}");
        }
        for key in ["開始日時", "対局日", "$START_TIME", "Date"] {
            assert!(Fact::StartTime.named_by(key), "{key}");
        }
        assert!(Fact::Sente.named_by("下手") && Fact::Sente.named_by("N+"));
        assert!(Fact::Title.named_by("作品名"));
        assert!(!Fact::Event.named_by("手合割"));
        assert_eq!(time_of_day("2024/01/15 9:05:30").as_deref(), Some("09:05"));
    }
}
