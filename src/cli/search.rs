//! `kifudex search`: games by their headers.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::{GameRowSummary, SearchFilter, search};
use kifudex::store::Store;

use super::output::{Style, Table};

#[derive(Args, Debug, Default)]
pub struct SearchArgs {
    /// A player on either side (part of the name; width, kana, 旧字体 and titles don't matter).
    #[arg(long)]
    player: Option<String>,
    /// The player with the first move (先手, or 下手 in a handicap game).
    #[arg(long)]
    sente: Option<String>,
    /// The other player (後手 / 上手).
    #[arg(long)]
    gote: Option<String>,
    /// Part of the event (棋戦) name.
    #[arg(long)]
    event: Option<String>,
    /// The opening (戦型): a known name (any spelling) matches the header's or the recognised
    /// opening at any level (振り飛車 finds 四間飛車 games); other text, part of the header's.
    #[arg(long)]
    opening: Option<String>,
    /// A castle (囲い) recognised from the moves, at any level (美濃囲い finds 銀冠).
    #[arg(long)]
    castle: Option<String>,
    /// A strategy (戦法) recognised from the moves, at any level (振り飛車 finds 石田流).
    #[arg(long)]
    strategy: Option<String>,
    /// The side --castle and --strategy are asked of: sente or gote.
    #[arg(long = "as", value_name = "SIDE")]
    side: Option<String>,
    /// Games on or after this date: YYYY, YYYY-MM or YYYY-MM-DD.
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Games on or before this date (2020-06 takes all of June).
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// sente, gote or draw.
    #[arg(long)]
    winner: Option<String>,
    /// A handicap: 平手, 香落ち, 角落ち, 二枚落ち ... (part of a name takes every match).
    #[arg(long)]
    handicap: Option<String>,
    /// At least this many moves.
    #[arg(long, value_name = "N")]
    min_plies: Option<u32>,
    /// At most this many moves.
    #[arg(long, value_name = "N")]
    max_plies: Option<u32>,
    /// At most this many rows (newest first).
    #[arg(long, default_value_t = 50, value_name = "N")]
    limit: usize,
    /// One JSON object per row.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run(db: &Path, args: &SearchArgs) -> Result<bool> {
    let store = Store::open(db)?;
    let filter = SearchFilter {
        player: args.player.clone(),
        sente: args.sente.clone(),
        gote: args.gote.clone(),
        event: args.event.clone(),
        opening: args.opening.clone(),
        castle: args.castle.clone(),
        strategy: args.strategy.clone(),
        side: args.side.clone(),
        since: args.since.clone(),
        until: args.until.clone(),
        winner: args.winner.clone(),
        handicap: args.handicap.clone(),
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        limit: Some(args.limit),
    };
    let found = search(&store, &filter)?;
    let style = if args.json {
        Style::Json
    } else if args.csv {
        Style::Csv
    } else {
        Style::Table
    };
    let mut out = std::io::stdout().lock();
    print_games(&mut out, &found.rows, style)?;
    if style == Style::Table {
        writeln!(
            out,
            "{} of {} game{}",
            found.rows.len(),
            found.total,
            if found.total == 1 { "" } else { "s" }
        )?;
    }
    Ok(true)
}

/// Prints game rows in a style (shared with `position`).
pub fn print_games(out: &mut impl Write, rows: &[GameRowSummary], style: Style) -> Result<()> {
    if style == Style::Json {
        for r in rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return Ok(());
    }
    let mut table = Table::new(vec![
        "id", "date", "sente", "gote", "winner", "plies", "event", "opening", "file",
    ]);
    table.keep_end.push(8);
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    for r in rows {
        table.rows.push(vec![
            r.id.to_string(),
            text(&r.date),
            text(&r.sente),
            text(&r.gote),
            text(&r.winner),
            r.plies.to_string(),
            text(&r.event),
            // The header's opening, else the recognised one, marked.
            r.opening
                .clone()
                .or_else(|| r.recognised.as_ref().map(|o| format!("{o}*")))
                .unwrap_or_default(),
            r.file.clone(),
        ]);
    }
    match style {
        Style::Csv => table.write_csv(out)?,
        _ => table.write(out)?,
    }
    Ok(())
}
