//! `kifudex text`: full-text search.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::{open_and_search, text_words};
use kifudex::text::SearchOptions;

use super::filter::FilterArgs;

#[derive(Args, Debug)]
pub struct TextArgs {
    /// What to look for, in tantivy's query syntax: words (Japanese text matches anywhere,
    /// 四間飛車 finds 右四間飛車), "a phrase", AND / OR / NOT (words are ANDed), and fields:
    /// players: event: opening: title: site: header: comment: remark: engine:
    /// The game filter's fields may be given here too (player:藤井 since:2020 comment:序盤).
    query: String,
    #[command(flatten)]
    filter: FilterArgs,
    /// Search engine lines (読み筋, `**` comments) too, not only when named by `engine:`.
    #[arg(long)]
    engine: bool,
    /// At most this many hits (best first, up to 1,000,000).
    #[arg(long, default_value_t = 20, value_name = "N", value_parser = super::bounds::rows())]
    limit: usize,
    /// One JSON object per hit.
    #[arg(long)]
    json: bool,
}

pub fn run(db: &Path, args: &TextArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    let mut filter = args.filter.filter()?;
    let query = text_words(&args.query, &mut filter)?;
    let options = SearchOptions {
        query,
        limit: args.limit,
        engine: args.engine,
        games: None,
        players: None,
    };
    let (hits, behind) = open_and_search(&store, &options, &filter)?;
    if let Some(n) = &behind {
        eprintln!("kifudex: note: {n}");
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        for h in &hits {
            writeln!(out, "{}", serde_json::to_string(h)?)?;
        }
        return Ok(true);
    }
    let (open, close) = if std::io::stdout().is_terminal() {
        ("\x1b[1m", "\x1b[0m")
    } else {
        ("[", "]")
    };
    for h in &hits {
        let ply = h.ply.map_or("headers".to_string(), |p| format!("ply {p}"));
        let players = match (&h.sente, &h.gote) {
            (Some(s), Some(g)) => format!("{s} - {g}"),
            (Some(p), None) | (None, Some(p)) => p.clone(),
            (None, None) => String::new(),
        };
        let game = if h.game_index > 0 {
            format!("{} (game {})", h.file, h.game_index + 1)
        } else {
            h.file.clone()
        };
        writeln!(
            out,
            "#{}  {ply}  {}  {}  {players}  {game}",
            h.id,
            h.field,
            h.date.as_deref().unwrap_or("-"),
        )?;
        writeln!(out, "    {}", h.highlighted.render(open, close))?;
    }
    writeln!(
        out,
        "{} hit{}",
        hits.len(),
        if hits.len() == 1 { "" } else { "s" }
    )?;
    Ok(true)
}
