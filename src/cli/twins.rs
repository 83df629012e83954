//! `kifudex twins`: what the twin rule does not merge but a person should look at (a record
//! cut short, the same moves under conflicting metadata); `--merge` makes two games one by
//! hand, `--split` undoes a merge.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};
use clap::Args;
use kifudex::store::{NearTwinKind, Store};
use kifudex::text::index::TextIndex;

use super::filter::FilterArgs;
use super::output::{Table, count};

#[derive(Args, Debug)]
// The filter's --source glob is --source-glob here (as in `remove`): --source names the
// source of a game to split.
#[command(mut_arg("source", |a| a
    .long("source-glob")
    .help("Near twins with a game read from a file matching this glob (the filter's --source)")))]
pub struct TwinsArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Make these two games one: the one whose main line is the other's or longer keeps
    /// every source of both (a record cut short goes into the whole one).
    #[arg(long, num_args = 2, value_names = ["ID", "ID"], conflicts_with = "split")]
    merge: Vec<i64>,
    /// Make each source of this game that holds it under facts of its own (a twin, or a
    /// record merged by hand) a game of its own again, never merged into it again.
    #[arg(long, value_name = "ID")]
    split: Option<i64>,
    /// With --split: split only this source of the game, by its number in `show ID
    /// --sources` (the game's own is 1) or by its file as listed there; a source that read
    /// the game with the same facts is split too.
    #[arg(
        long = "source",
        id = "split_source",
        value_name = "N|PATH",
        requires = "split"
    )]
    split_source: Option<String>,
    /// JSON Lines: one object per pair or group (or the merge or split done).
    #[arg(long)]
    json: bool,
}

pub fn run(db: &Path, args: &TwinsArgs) -> Result<bool> {
    let filter = args.filter.filter()?;
    let by_hand = !args.merge.is_empty() || args.split.is_some();
    if by_hand && !filter.is_empty() {
        return Err(kifudex::query::QueryError::BadArgument(
            "a game filter lists near twins: it cannot be combined with --merge or --split".into(),
        )
        .into());
    }
    let mut out = std::io::stdout().lock();
    if let [a, b] = args.merge[..] {
        let (mut store, _lock) = super::open_for_writing(db)?;
        let done = with_text(&mut store, |s| s.merge_twins(a, b).map_err(Into::into))?;
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&done)?)?;
        } else {
            writeln!(
                out,
                "merged game {} into game {}: it has {} more",
                done.gone,
                done.kept,
                count(done.sources, "source")
            )?;
        }
        return Ok(true);
    }
    if let Some(game) = args.split {
        let (mut store, _lock) = super::open_for_writing(db)?;
        let done = match &args.split_source {
            None => with_text(&mut store, |s| s.split_twins(game).map_err(Into::into))?,
            Some(named) => {
                let number = source_number(&store, game, named)?;
                with_text(&mut store, |s| {
                    s.split_twin_source(game, number).map_err(Into::into)
                })?
            }
        };
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&done)?)?;
        } else {
            let ids: Vec<String> = done.games.iter().map(i64::to_string).collect();
            writeln!(
                out,
                "split game {}: its other sources are {} {}",
                done.game,
                if ids.len() == 1 { "game" } else { "games" },
                ids.join(", ")
            )?;
        }
        return Ok(true);
    }
    let store = super::open_for_reading(db, false)?;
    let within = filter.resolve(&store, None)?;
    let found = store.near_twins(within.as_ref())?;
    if args.json {
        for t in &found {
            writeln!(out, "{}", serde_json::to_string(t)?)?;
        }
        return Ok(true);
    }
    let mut table = Table::new(vec!["kind", "games", "moves", "what differs"]);
    for t in &found {
        let join = |v: Vec<String>| v.join(", ");
        table.rows.push(vec![
            match t.kind {
                NearTwinKind::Prefix => "prefix".into(),
                NearTwinKind::Conflict => "conflict".into(),
            },
            join(t.games.iter().map(i64::to_string).collect()),
            join(t.plies.iter().map(u32::to_string).collect()),
            match t.kind {
                NearTwinKind::Prefix => "a record cut short".into(),
                NearTwinKind::Conflict => t.conflicts.join(", "),
            },
        ]);
    }
    if !found.is_empty() {
        table.write(&mut out)?;
    }
    writeln!(out, "{}", count(found.len(), "near twin"))?;
    Ok(true)
}

/// The number (from 1, as `show --sources` lists them) of the source of game `game` that
/// `named` names: a number, or the file as listed (or the same file named from here).
fn source_number(store: &Store, game: i64, named: &str) -> Result<usize> {
    if let Ok(n) = named.parse::<usize>() {
        return Ok(n);
    }
    let Some(sources) = store.game_sources(game)? else {
        return Err(kifudex::store::TwinError::NoGame(game).into());
    };
    let cwd = std::env::current_dir()?;
    let same = |file: &str| {
        file == named
            || kifudex::ingest::remove::absolute(Path::new(file), &cwd)
                == kifudex::ingest::remove::absolute(Path::new(named), &cwd)
    };
    let found: Vec<usize> = sources
        .iter()
        .enumerate()
        .filter(|(_, s)| same(&s.file))
        .map(|(i, _)| i + 1)
        .collect();
    match found[..] {
        [n] => Ok(n),
        [] => {
            bail!("game {game} has no source {named} (`kifudex show {game} --sources` lists them)")
        }
        _ => {
            let numbers: Vec<String> = found.iter().map(usize::to_string).collect();
            bail!(
                "{named} holds game {game} {} times (sources {}): name one by its number",
                found.len(),
                numbers.join(", ")
            )
        }
    }
}

/// Runs a merge or split with the text index brought up to date around it: the games that
/// go leave it, the games made and the game whose facts changed are indexed (again).
fn with_text<T: HasGone>(
    store: &mut Store,
    change: impl FnOnce(&mut Store) -> Result<T>,
) -> Result<T> {
    let (mut text, report) = TextIndex::open_synced(&store.db().text(), &*store)?;
    if let Some(n) = &report.notice {
        eprintln!("kifudex: {n}");
    }
    let done = change(store)?;
    text.apply(done.gone(), &[])?;
    text.sync(&*store)?;
    text.finish()?;
    Ok(done)
}

/// The games a change deleted.
trait HasGone {
    fn gone(&self) -> &[i64];
}

impl HasGone for kifudex::store::MergedGames {
    fn gone(&self) -> &[i64] {
        std::slice::from_ref(&self.gone)
    }
}

impl HasGone for kifudex::store::SplitGame {
    fn gone(&self) -> &[i64] {
        &[]
    }
}
