//! A filter of dates alone over totals kept per year (the opening totals, the players'
//! totals): the years it spans whole are summed from the totals, and only the games of the
//! years it cuts (at most two) are read.

use super::filter::GameFilter;

/// How a filter of dates alone is counted: the years it spans whole from the totals, the
/// years it cuts by reading their games.
pub(super) struct DatePlan {
    /// First and last whole year (none when first > last).
    pub years: (i64, i64),
    /// Whether a date is asked for: games without one are then left out.
    pub dated: bool,
    /// The filters of the games of the years cut: `since 2010-03-15` reads 2010's games from
    /// that day on. (`since 2010-01-01` cuts 2010 too: a game dated only `2010` is before it.)
    pub cut: Vec<GameFilter>,
}

/// The plan for a filter that asks nothing but `since` and `until`; None for any other.
/// A year is whole when `since` is that year (`2010`) or before it, and `until` that year,
/// its December or its last day (`2020`, `2020-12`, `2020-12-31`) or after it.
pub(super) fn date_plan(filter: &GameFilter) -> Option<DatePlan> {
    let rest = GameFilter {
        since: None,
        until: None,
        ..filter.clone()
    };
    if !rest.is_empty() {
        return None;
    }
    // The stored bounds are `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    let year = |s: &str| {
        s.get(..4)
            .filter(|y| y.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|y| y.parse::<i64>().ok())
    };
    let since = filter.since.as_deref();
    let until = filter.until.as_deref();
    let (first, since_cut) = match since {
        None => (i64::MIN, None),
        Some(s) if s.len() == 4 => (year(s)?, None),
        Some(s) => (year(s)? + 1, Some(year(s)?)),
    };
    let (last, until_cut) = match until {
        None => (i64::MAX, None),
        Some(u) => {
            let y = year(u)?;
            if u.len() == 4 || u == format!("{y:04}-12") || u == format!("{y:04}-12-31") {
                (y, None)
            } else {
                (y - 1, Some(y))
            }
        }
    };
    let since_year = since.and_then(year);
    let until_year = until.and_then(year);
    // Bounds the wrong way round are for the filter's own check to refuse.
    if let (Some(a), Some(b)) = (since_year, until_year)
        && a > b
    {
        return None;
    }
    let mut cut = Vec::new();
    if let Some(y) = since_cut {
        // The cut year from `since` on, up to `until` when it falls in the same year.
        let up_to = match until {
            Some(u) if until_year == Some(y) => u.to_string(),
            _ => format!("{y:04}"),
        };
        cut.push(GameFilter {
            since: since.map(str::to_string),
            until: Some(up_to),
            ..GameFilter::default()
        });
    }
    if let Some(y) = until_cut
        && since_cut != Some(y)
    {
        // The cut year up to `until`, from `since` when it falls in the same year.
        let from = match since {
            Some(s) if since_year == Some(y) => s.to_string(),
            _ => format!("{y:04}"),
        };
        cut.push(GameFilter {
            since: Some(from),
            until: until.map(str::to_string),
            ..GameFilter::default()
        });
    }
    Some(DatePlan {
        years: (first, last),
        dated: since.is_some() || until.is_some(),
        cut,
    })
}
