//! Game dates as records write them (`2019/04/08(月) 10:00`, `2019年4月8日`, `平成31年4月8日`,
//! `2019-04-08T10:00:00`, `20190408`) read as a [`GameDate`]: a day, or a month or a year
//! when the record gives no more, written `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.

use std::fmt;

/// A game's date, as precise as its record gives it. Dates order as their text does (a year
/// before its months, a month before its days).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameDate {
    year: u16,
    /// 1–12; 0 when unknown.
    month: u8,
    /// 1–31; 0 when unknown (always with an unknown month).
    day: u8,
}

impl GameDate {
    /// A date of a four-digit year, perhaps a month (1–12), perhaps a day (1–31) of it.
    pub fn new(year: u32, month: Option<u32>, day: Option<u32>) -> Option<GameDate> {
        if !(1000..=9999).contains(&year) {
            return None;
        }
        let month = match month {
            None => 0,
            Some(m @ 1..=12) => m as u8,
            Some(_) => return None,
        };
        let day = match day {
            None => 0,
            Some(d @ 1..=31) if month != 0 => d as u8,
            Some(_) => return None,
        };
        Some(GameDate {
            year: year as u16,
            month,
            day,
        })
    }

    /// Reads a date as [`GameDate`] writes it (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), as the
    /// database holds it.
    pub fn parse(text: &str) -> Option<GameDate> {
        let mut parts = text.split('-');
        let number = |p: &str, len: usize| {
            (p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse::<u32>().ok())
                .flatten()
        };
        let year = number(parts.next()?, 4)?;
        let month = match parts.next() {
            Some(p) => Some(number(p, 2)?),
            None => None,
        };
        let day = match parts.next() {
            Some(p) => Some(number(p, 2)?),
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        GameDate::new(year, month, day)
    }

    pub fn year(self) -> u32 {
        u32::from(self.year)
    }

    pub fn month(self) -> Option<u32> {
        (self.month != 0).then_some(u32::from(self.month))
    }

    pub fn day(self) -> Option<u32> {
        (self.day != 0).then_some(u32::from(self.day))
    }

    /// `YYYYMMDD` as a number, unknown parts zero: what the position index keeps per game
    /// (0 is a game without a date).
    pub fn code(self) -> u32 {
        self.year() * 10_000 + u32::from(self.month) * 100 + u32::from(self.day)
    }

    /// The date of a [`GameDate::code`]; `None` for 0 (no date) or a code no date has.
    pub fn from_code(code: u32) -> Option<GameDate> {
        let (y, m, d) = (code / 10_000, code / 100 % 100, code % 100);
        GameDate::new(y, (m != 0).then_some(m), (d != 0).then_some(d))
    }
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, written digit by digit (every game row has one).
impl fmt::Display for GameDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let y = self.year();
        let text = [
            b'0' + (y / 1000 % 10) as u8,
            b'0' + (y / 100 % 10) as u8,
            b'0' + (y / 10 % 10) as u8,
            b'0' + (y % 10) as u8,
            b'-',
            b'0' + self.month / 10,
            b'0' + self.month % 10,
            b'-',
            b'0' + self.day / 10,
            b'0' + self.day % 10,
        ];
        let len = match (self.month, self.day) {
            (0, _) => 4,
            (_, 0) => 7,
            _ => 10,
        };
        f.write_str(std::str::from_utf8(&text[..len]).expect("ASCII digits"))
    }
}

/// Japanese eras and the Gregorian year before their first year.
const ERAS: &[(&str, u32)] = &[
    ("令和", 2018),
    ("平成", 1988),
    ("昭和", 1925),
    ("大正", 1911),
    ("明治", 1867),
];

/// The date a header value names; `None` when it names none.
pub fn read_date(value: &str) -> Option<GameDate> {
    read_date_with(value, |date, _| date)
}

/// The days a header value names: its date, and the last day of a game that a value says
/// went on for days (`2008/12/17-18`, `2008年12月17日〜18日`, `17・18日`); the same date twice
/// for one day (or a month, a year). `None` when it names no date.
pub fn read_date_span(value: &str) -> Option<(GameDate, GameDate)> {
    read_date_with(value, last_day)
}

/// The span of days from `date` to the day a range after it names (`-18` in
/// `2008/12/17-18`).
fn last_day(date: GameDate, rest: &str) -> (GameDate, GameDate) {
    let Some(day) = date.day() else {
        return (date, date);
    };
    let rest = rest.strip_prefix('日').unwrap_or(rest);
    let mut chars = rest.chars();
    let last = match chars.next() {
        Some('-' | '~' | '〜' | '～' | '・' | '、' | ',') => {
            let after = chars.as_str();
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let more = after[digits..].chars().next();
            // A number that is no time of day or month (`-18:00`, `-18/…`).
            let next_day = (1..=2).contains(&digits)
                && !matches!(more, Some(':' | '/' | '.' | '-' | '月' | '時'));
            next_day
                .then(|| after[..digits].parse::<u32>().ok())
                .flatten()
                .filter(|&d| d > day)
                .and_then(|d| GameDate::new(date.year(), date.month(), Some(d)))
        }
        _ => None,
    };
    (date, last.unwrap_or(date))
}

/// The date a value names, given to `f` with what follows the date in the value (its
/// digits folded to ASCII).
fn read_date_with<R>(value: &str, f: impl FnOnce(GameDate, &str) -> R) -> Option<R> {
    let folded: String = value
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            '／' => '/',
            '－' => '-',
            _ => c,
        })
        .collect();
    let s = folded.trim();
    let (era_base, rest) = match ERAS.iter().find(|(name, _)| s.starts_with(name)) {
        Some(&(name, base)) => (Some(base), &s[name.len()..]),
        None => (None, s),
    };
    let mut parts = Parts::new(rest);
    let year = match era_base {
        Some(base) => {
            let n = if parts.rest.starts_with('元') {
                parts.rest = &parts.rest['元'.len_utf8()..];
                1
            } else {
                parts.number()?.0
            };
            if !(1..=99).contains(&n) {
                return None;
            }
            base + n
        }
        None => {
            let (n, digits) = parts.number()?;
            if digits == 8 {
                let (y, m, d) = (n / 10000, n / 100 % 100, n % 100);
                let date = GameDate::new(y, Some(m), Some(d))?;
                return Some(f(date, parts.rest));
            }
            if digits != 4 {
                return None;
            }
            n
        }
    };
    if !(1000..=9999).contains(&year) {
        return None;
    }
    let with_rest = |date: Option<GameDate>, rest: &str| date.map(|d| f(d, rest));
    let Some(month) = parts.next_after(&['/', '-', '.', '年']) else {
        return with_rest(GameDate::new(year, None, None), parts.rest);
    };
    if !(1..=12).contains(&month) {
        return with_rest(GameDate::new(year, None, None), parts.rest);
    }
    match parts.next_after(&['/', '-', '.', '月']) {
        Some(day) if (1..=31).contains(&day) => {
            with_rest(GameDate::new(year, Some(month), Some(day)), parts.rest)
        }
        _ => with_rest(GameDate::new(year, Some(month), None), parts.rest),
    }
}

struct Parts<'a> {
    rest: &'a str,
}

impl<'a> Parts<'a> {
    fn new(s: &'a str) -> Parts<'a> {
        Parts { rest: s }
    }

    /// A run of ASCII digits at the start: its value and length.
    fn number(&mut self) -> Option<(u32, usize)> {
        let len = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 || len > 8 {
            return None;
        }
        let n = self.rest[..len].parse().ok()?;
        self.rest = &self.rest[len..];
        Some((n, len))
    }

    /// The number after one of the separators, of one or two digits.
    fn next_after(&mut self, separators: &[char]) -> Option<u32> {
        let c = self.rest.chars().next()?;
        if !separators.contains(&c) {
            return None;
        }
        let saved = self.rest;
        self.rest = &self.rest[c.len_utf8()..];
        match self.number() {
            Some((n, 1..=2)) => Some(n),
            _ => {
                self.rest = saved;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: u32, m: u32, d: u32) -> GameDate {
        GameDate::new(y, Some(m), Some(d)).unwrap()
    }

    /// A game of two days says so in several ways; a time of day, another month or a
    /// number that goes back is no range.
    #[test]
    fn spans_of_days() {
        let two = (day(2008, 12, 17), day(2008, 12, 18));
        for v in [
            "2008/12/17-18",
            "2008/12/17～18",
            "2008年12月17日〜18日",
            "2008年12月17・18日",
            "２００８／１２／１７－１８",
        ] {
            assert_eq!(read_date_span(v), Some(two), "{v}");
            assert_eq!(read_date(v), Some(day(2008, 12, 17)), "{v}");
        }
        let one = (day(2008, 12, 17), day(2008, 12, 17));
        for v in [
            "2008/12/17",
            "2008/12/17 09:00",
            "2008/12/17-09:00",
            "2008-12-17T09:00:00",
            "2008/12/17-16",
            "20081217",
        ] {
            assert_eq!(read_date_span(v), Some(one), "{v}");
        }
        let month = GameDate::new(2008, Some(12), None).unwrap();
        assert_eq!(read_date_span("2008/12"), Some((month, month)));
        assert_eq!(read_date_span("no date"), None);
    }
}
