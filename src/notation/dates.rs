//! Game dates as records write them (`2019/04/08(月) 10:00`, `2019年4月8日`, `平成31年4月8日`,
//! `2019-04-08T10:00:00`, `20190408`) normalised to `YYYY-MM-DD`, or `YYYY-MM` / `YYYY` when the
//! record gives no more.

/// Japanese eras and the Gregorian year before their first year.
const ERAS: &[(&str, u32)] = &[
    ("令和", 2018),
    ("平成", 1988),
    ("昭和", 1925),
    ("大正", 1911),
    ("明治", 1867),
];

/// The date a header value names, normalised; `None` when it names none.
pub fn normalize_date(value: &str) -> Option<String> {
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
                return valid(y, m, d).then(|| iso(y, Some(m), Some(d)));
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
    let Some(month) = parts.next_after(&['/', '-', '.', '年']) else {
        return Some(iso(year, None, None));
    };
    if !(1..=12).contains(&month) {
        return Some(iso(year, None, None));
    }
    match parts.next_after(&['/', '-', '.', '月']) {
        Some(day) if valid(year, month, day) => Some(iso(year, Some(month), Some(day))),
        _ => Some(iso(year, Some(month), None)),
    }
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` of a year of four digits, a month and a day of at most
/// two (every game row has one: written digit by digit, not through `format!`).
fn iso(year: u32, month: Option<u32>, day: Option<u32>) -> String {
    fn push(out: &mut String, n: u32, width: u32) {
        for p in (0..width).rev() {
            out.push(char::from(b'0' + (n / 10u32.pow(p) % 10) as u8));
        }
    }
    let mut out = String::with_capacity(10);
    push(&mut out, year, 4);
    for part in [month, day].into_iter().flatten() {
        out.push('-');
        push(&mut out, part, 2);
    }
    out
}

fn valid(y: u32, m: u32, d: u32) -> bool {
    (1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
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
