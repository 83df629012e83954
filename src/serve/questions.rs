//! The API calls behind the explorer's panels besides the board: a player's page, the
//! openings table and the board's picture. Each answers what a CLI command prints with
//! `--json` (the rows serialised as the command serialises them, so that numbers print the
//! same), for the page to show.

use super::api::{ApiError, MAX_LIMIT, filter, filter_unchecked, game_filter_params};
use super::params::Params;
use crate::picture::{Font, PictureError};
use crate::query::{self, OpeningsBy};
use crate::store::{Store, StoredGame};

/// A row (or rows) as JSON text, as the CLI prints it (a macro: the crate names no `serde`
/// of its own to bound a function with).
macro_rules! to_json {
    ($v:expr) => {
        serde_json::to_string($v).map_err(|e| ApiError::Internal(e.to_string()))
    };
}

/// `/api/player?name=NAME`: one player's page, over the games the filter takes: the
/// player's line of `players NAME --json` (results as sente and as gote), the same per year
/// (`players NAME --since Y --until Y`), the repertoire (`openings --player NAME`) and, with
/// `vs=OTHER`, the head-to-head record and its games (`players NAME --vs OTHER`, then
/// `search --player NAME --vs OTHER`). The player is the one of most games among those the
/// name matches (all of them in `matches`).
pub fn player(store: &Store, p: &Params) -> Result<String, ApiError> {
    p.only(&[game_filter_params(), &["name", "limit"]])?;
    let Some(name) = p.get("name") else {
        return Err(ApiError::BadRequest("give name=, the player's name".into()));
    };
    let limit = p.limit("limit", 50, MAX_LIMIT)?;
    let f = filter_unchecked(p)?;
    if f.player.is_some() {
        return Err(ApiError::BadRequest(
            "give the player once: as name=, not player=".into(),
        ));
    }
    // The fields together, the player being `name` (which `vs` needs).
    let mut named = f.clone();
    named.player = Some(name.to_string());
    named
        .check()
        .map_err(|e| ApiError::BadRequest(e.describe(query::Words::Api)))?;
    let rows = query::players(store, &f, Some(name))?;
    let Some(row) = rows.first() else {
        return Err(ApiError::NotFound(format!("no player matches {name:?}")));
    };
    let matches: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    // Per year, from the first year of their games to the last: the filter narrowed to it.
    let year = |d: &Option<String>| {
        d.as_deref()
            .and_then(|d| d.get(..4))
            .and_then(|y| y.parse::<u32>().ok())
    };
    let mut years = Vec::new();
    if let (Some(first), Some(last)) = (year(&row.first_date), year(&row.last_date)) {
        for y in first..=last {
            let mut fy = f.clone();
            fy.since = Some(year_since(f.since.as_deref(), y));
            fy.until = Some(year_until(f.until.as_deref(), y));
            let found = query::players(store, &fy, Some(&row.name))?;
            // The same player, shown by the spelling most of that year's games use.
            let same = |r: &query::PlayerRow| r.name == row.name || row.spellings.contains(&r.name);
            if let Some(r) = found.into_iter().find(same) {
                years.push(format!("{{\"year\":\"{y}\",\"row\":{}}}", to_json!(&r)?));
            }
        }
    }
    let mut of_player = f.clone();
    of_player.player = Some(row.name.clone());
    let openings = query::openings(store, &of_player, OpeningsBy::Name)?;
    let mut out = format!(
        "{{\"player\":{},\"matches\":{},\"years\":[{}],\"openings\":{}",
        to_json!(row)?,
        to_json!(&matches)?,
        years.join(","),
        to_json!(&openings)?
    );
    if f.vs.is_some() {
        let found = query::search(store, &of_player, Some(limit))?;
        out.push_str(&format!(
            ",\"head_to_head\":{{\"games\":{},\"total\":{}}}",
            to_json!(&found.rows)?,
            found.total
        ));
    }
    out.push('}');
    Ok(out)
}

/// The filter's `since` within year `y`: the later of the two (dates are text, `2020-06`
/// after `2020`).
fn year_since(since: Option<&str>, y: u32) -> String {
    let year = format!("{y:04}");
    match since {
        Some(s) if s > year.as_str() => s.to_string(),
        _ => year,
    }
}

/// The filter's `until` within year `y`: the user's when it ends within the year or before
/// it (`2020-06` is narrower than `2020`, though it sorts after it), else the year.
fn year_until(until: Option<&str>, y: u32) -> String {
    let year = format!("{y:04}");
    match until {
        Some(u) if u.starts_with(&year) || u < year.as_str() => u.to_string(),
        _ => year,
    }
}

/// `/api/openings`: `openings --json` over the games the filter takes: `by=name` (the
/// default: each opening, strategy and castle), `by=pair` (`--pairs`) or `by=year` (`--by
/// year`, the trends). With `player=`, that player's results (the repertoire).
pub fn openings(store: &Store, p: &Params) -> Result<String, ApiError> {
    p.only(&[game_filter_params(), &["by"]])?;
    let by = match p.get("by") {
        None | Some("name") => OpeningsBy::Name,
        Some("pair") => OpeningsBy::Pair,
        Some("year") => OpeningsBy::Year,
        Some(v) => {
            return Err(ApiError::BadRequest(format!(
                "by={v:?}: give name, pair or year"
            )));
        }
    };
    let f = filter(p)?;
    let rows = query::openings(store, &f, by)?;
    Ok(format!("{{\"rows\":{}}}", to_json!(&rows)?))
}

/// `/api/board.svg?id=ID&ply=N`: the picture of `show ID --ply N --svg` (after the last move
/// without `ply`).
pub fn board_svg(store: &Store, p: &Params) -> Result<String, ApiError> {
    let (g, ply) = picture_game(store, p)?;
    crate::picture::game_svg(&g, ply).map_err(picture_error)
}

/// `/api/board.png?id=ID&ply=N`: the picture of `show ID --ply N --png`, drawn with the
/// font `show` finds on this machine (looked for once).
pub fn board_png(store: &Store, p: &Params) -> Result<Vec<u8>, ApiError> {
    static FONT: std::sync::OnceLock<Result<Font, String>> = std::sync::OnceLock::new();
    let (g, ply) = picture_game(store, p)?;
    let drawing = crate::picture::game_drawing(&g, ply).map_err(picture_error)?;
    let font = FONT
        .get_or_init(|| Font::find().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| ApiError::Internal(e.clone()))?;
    drawing.png(font).map_err(picture_error)
}

/// The game and ply a picture's parameters ask for.
fn picture_game(store: &Store, p: &Params) -> Result<(StoredGame, Option<usize>), ApiError> {
    p.only(&[&["id", "ply"]])?;
    let Some(id) = p.number("id")? else {
        return Err(ApiError::BadRequest("give id=, the game's id".into()));
    };
    let id = i64::try_from(id).map_err(|_| ApiError::BadRequest(format!("no game {id}")))?;
    let ply = p.number("ply")?.map(|n| n as usize);
    let Some(g) = store.game(id)? else {
        return Err(ApiError::NotFound(format!("no game with id {id}")));
    };
    Ok((g, ply))
}

fn picture_error(e: PictureError) -> ApiError {
    match e {
        PictureError::NoSuchPly { .. } => ApiError::BadRequest(e.to_string()),
        e => ApiError::Internal(e.to_string()),
    }
}

/// The API's content type of an answer to `path`.
pub fn content_type(path: &str) -> &'static str {
    match path {
        "/api/board.svg" => "image/svg+xml; charset=utf-8",
        "/api/board.png" => "image/png",
        _ => "application/json; charset=utf-8",
    }
}

#[cfg(test)]
mod tests {
    use super::{year_since, year_until};

    #[test]
    fn a_year_within_the_filter_dates() {
        assert_eq!(year_since(None, 2020), "2020");
        assert_eq!(year_since(Some("2019-05"), 2020), "2020");
        assert_eq!(year_since(Some("2020-06"), 2020), "2020-06");
        assert_eq!(year_since(Some("2021"), 2020), "2021");
        assert_eq!(year_until(None, 2020), "2020");
        assert_eq!(year_until(Some("2020-06"), 2020), "2020-06");
        assert_eq!(year_until(Some("2024"), 2020), "2020");
        assert_eq!(year_until(Some("2019-12-31"), 2020), "2019-12-31");
    }
}
