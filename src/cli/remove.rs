//! `kifudex remove`: games (by id, or those a filter takes) or sources (at or under paths, or
//! gone from disk) out of the database, with their postings, text and players; `--dry-run`
//! lists what would go.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use kifudex::ingest::remove::{is_under, missing, remove};
use kifudex::query::QueryError;
use kifudex::store::{Removal, Store, StoredSource};

use super::filter::FilterArgs;
use super::output::{Style, count, terminal_safe};
use super::search::print_games;

#[derive(Args, Debug)]
// The filter's --source glob is --source-glob here: --source names sources to remove.
#[command(mut_arg("source", |a| a
    .long("source-glob")
    .help("Games read from a file matching this glob (the filter's --source): removed outright")))]
pub struct RemoveArgs {
    /// Remove these games (ids as `search` shows them) outright, from every file that holds them.
    #[arg(long = "game", value_name = "ID", num_args = 1.., conflicts_with_all = ["sources", "missing", "all"])]
    games: Vec<i64>,
    /// Remove the sources (files, archive entries) at or under these paths, with the games
    /// no other source holds; importing such a file again reads it as new.
    #[arg(long = "source", id = "sources", value_name = "PATH", num_args = 1.., conflicts_with_all = ["missing", "all"])]
    sources: Vec<PathBuf>,
    /// Remove the sources whose file is no longer on disk (only those under PATH when given),
    /// with the games no other source holds. Relative paths are looked up from the current
    /// directory, as the import that read them did.
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    missing: Option<Option<PathBuf>>,
    /// Remove every game (there is no filter), or with --missing, go on when every source of
    /// the database is missing.
    #[arg(long)]
    all: bool,
    /// List what would go, and change nothing.
    #[arg(long)]
    dry_run: bool,
    /// JSON: with --dry-run one object per source and game that would go; then the summary.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    filter: FilterArgs,
}

fn bad(message: &str) -> anyhow::Error {
    QueryError::BadArgument(message.to_string()).into()
}

pub fn run(db: &Path, args: &RemoveArgs) -> Result<bool> {
    let started = Instant::now();
    let filter = args.filter.filter()?;
    let by_place = !args.games.is_empty() || !args.sources.is_empty() || args.missing.is_some();
    if !filter.is_empty() && by_place {
        return Err(bad(
            "a game filter cannot be combined with --game, --source or --missing",
        ));
    }
    if !filter.is_empty() && args.all {
        return Err(bad("--all removes every game: give it without a filter"));
    }
    if filter.is_empty() && !by_place && !args.all {
        return Err(bad(
            "remove needs what to remove: --game ID, --source PATH, --missing, a game filter (--player, --event, ...), or --all for every game",
        ));
    }
    // Nothing is read or written while an import runs, and none starts meanwhile.
    let (mut store, _lock) = super::open_for_writing(db)?;
    let sources = store.stored_sources()?;
    let plan = plan(&store, db, args, &filter, &sources)?;
    if args.dry_run {
        list(&store, &plan, &sources, args.json)?;
        let counts = Counts {
            games: plan.games.len(),
            sources: plan.sources.len(),
            kept: plan.kept.len(),
            players: plan.players.len(),
            errors: plan.errors,
            positions: None,
        };
        summary(db, &counts, started, args.json)?;
        return Ok(true);
    }
    let (removed, notice) = remove(&mut store, &plan)?;
    if let Some(n) = notice {
        eprintln!("kifudex: {}", terminal_safe(&n));
    }
    let counts = Counts {
        games: removed.games.len(),
        sources: removed.sources,
        kept: removed.kept,
        players: removed.players,
        errors: removed.errors,
        positions: Some(removed.positions),
    };
    summary(db, &counts, started, args.json)?;
    Ok(true)
}

/// What goes, from the arguments.
fn plan(
    store: &Store,
    db: &Path,
    args: &RemoveArgs,
    filter: &kifudex::query::GameFilter,
    sources: &[StoredSource],
) -> Result<Removal> {
    if !args.games.is_empty() {
        let unknown = store.unknown_games(&args.games)?;
        if !unknown.is_empty() {
            let ids: Vec<String> = unknown.iter().map(i64::to_string).collect();
            bail!(
                "no game with id {} in {}: nothing removed",
                ids.join(", "),
                db.display()
            );
        }
        return Ok(store.plan_removal(&args.games, &[])?);
    }
    let cwd = std::env::current_dir()?;
    let under = |path: &Path| -> Result<Vec<&StoredSource>> {
        let found: Vec<&StoredSource> =
            sources.iter().filter(|s| is_under(s, path, &cwd)).collect();
        if found.is_empty() {
            bail!(
                "no source at or under {} in {} (sources are known by the paths given to import, as `search` shows them): nothing removed",
                path.display(),
                db.display()
            );
        }
        Ok(found)
    };
    if !args.sources.is_empty() {
        let mut ids = BTreeSet::new();
        for p in &args.sources {
            ids.extend(under(p)?.iter().map(|s| s.id));
        }
        let ids: Vec<i64> = ids.into_iter().collect();
        return Ok(store.plan_removal(&[], &ids)?);
    }
    if let Some(path) = &args.missing {
        let looked: Vec<&StoredSource> = match path {
            Some(p) => under(p)?,
            None => sources.iter().collect(),
        };
        let gone = missing(&looked);
        // Run from another directory than the import's, every relative path looks gone.
        if path.is_none() && !args.all && gone.len() > 1 && gone.len() == looked.len() {
            bail!(
                "none of the {} sources is on disk (relative paths are looked up from {}): if they are all gone, give --all too; nothing removed",
                gone.len(),
                cwd.display()
            );
        }
        return Ok(store.plan_removal(&[], &gone)?);
    }
    let sel = filter.selection(store)?;
    let ids: Vec<i64> = store.select_games(&sel, None)?.ids().collect();
    Ok(store.plan_removal(&ids, &[])?)
}

/// What would go, one source and one game a line (or JSON object).
fn list(store: &Store, plan: &Removal, sources: &[StoredSource], json: bool) -> Result<()> {
    let paths = sources
        .iter()
        .filter(|s| plan.sources.binary_search(&s.id).is_ok());
    let games = store.summaries(&plan.games)?;
    if json {
        for s in paths {
            let obj = serde_json::json!({"remove": "source", "id": s.id, "path": s.path});
            outln!("{obj}");
        }
        for g in &games {
            let mut obj = serde_json::to_value(g)?;
            obj["remove"] = "game".into();
            outln!("{obj}");
        }
        return Ok(());
    }
    for s in paths {
        outln!("source  {}", terminal_safe(&s.path));
    }
    if !games.is_empty() {
        let mut out = std::io::stdout().lock();
        print_games(&mut out, &games, Style::Table, false)?;
    }
    Ok(())
}

/// What a removal took (or would take) away.
struct Counts {
    games: usize,
    sources: usize,
    kept: usize,
    players: usize,
    errors: u64,
    /// `None` for a dry run.
    positions: Option<u64>,
}

/// The closing line (or JSON object).
fn summary(db: &Path, c: &Counts, started: Instant, json: bool) -> Result<()> {
    let positions = c.positions;
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let obj = serde_json::json!({
            "dry_run": positions.is_none(),
            "games": c.games,
            "sources": c.sources,
            "kept": c.kept,
            "players": c.players,
            "errors": c.errors,
            "positions": positions,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "db": db.to_string_lossy(),
        });
        outln!("{obj}");
        return Ok(());
    }
    let mut line = format!(
        "{} {}, {} from {}: ",
        if positions.is_some() {
            "removed"
        } else {
            "would remove"
        },
        count(c.games, "game"),
        count(c.sources, "source"),
        db.display(),
    );
    if c.kept > 0 {
        line += &format!(
            "{} kept (another source holds {}), ",
            count(c.kept, "game"),
            if c.kept == 1 { "it" } else { "them" }
        );
    }
    line += &format!(
        "{}, {}",
        count(c.players, "player"),
        count(c.errors as usize, "import error")
    );
    match positions {
        Some(n) => line += &format!(", {} in {seconds:.2} s", count(n as usize, "position")),
        None => line += " (dry run: nothing changed)",
    }
    outln!("{line}");
    Ok(())
}
