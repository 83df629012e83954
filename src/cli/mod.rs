//! Command-line parsing and dispatch. Each command has its own module and options struct.

/// `println!` that returns an error instead of panicking when stdout is closed (a pipe into
/// `head`, say); `run` treats a closed pipe as success.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

mod bounds;
mod check;
mod convert;
mod export;
mod filter;
mod find;
mod import;
mod openings;
mod optimize;
mod output;
mod parse;
mod perft;
mod players;
mod position;
mod reindex;
mod remove;
mod search;
mod serve;
mod show;
mod stats;
mod text;
mod upgrade;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// kifudex: a shogi game-database indexer.
#[derive(Parser, Debug)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {
    /// The database directory (holds kifudex.sqlite and text/).
    #[arg(
        long,
        global = true,
        env = "KIFUDEX_DB",
        default_value = "kifudex-db",
        value_name = "DIR"
    )]
    db: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read the whole database and say what is damaged or behind (`--repair` rebuilds what
    /// is derived from the games).
    Check(check::CheckArgs),
    /// Convert a record to another format, keeping moves, variations, comments, bookmarks,
    /// times and headers.
    Convert(convert::ConvertArgs),
    /// Write the selected games out: as record files (--to FORMAT --out DIR) or as Parquet
    /// (--parquet DIR) for DuckDB, Spark and the like.
    Export(export::ExportArgs),
    /// Turn record files straight into Parquet, without a database (a cluster worker's shard).
    Parquet(export::ParquetArgs),
    /// Write an opening book for engines (YaneuraOu's DB2016 text format) from the selected games.
    Book(export::BookArgs),
    /// Print a position's SFEN and its hashes (`hash` and `hand_hash` of positions.parquet, and
    /// `board_hash`, which is `hash XOR hand_hash`).
    Hash(export::HashArgs),
    /// Import record files, directories (recursively) and .zip archives into the database.
    Import(import::ImportArgs),
    /// Pattern search over every position of every game (pieces on squares, hands, the last
    /// move, castles ...), or positions like a given one (--like).
    Find(find::FindArgs),
    /// Read game records without a database and print one JSON object per game.
    Parse(parse::ParseArgs),
    /// Count the leaf nodes of the legal move tree from a position (move generator check
    /// and speed measure), with nodes per second.
    Perft(perft::PerftArgs),
    /// Rebuild the full-text index from the database.
    Reindex(reindex::ReindexArgs),
    /// Remove games (by id or filter) or sources (at or under paths, or gone from disk), with
    /// their positions, text and players.
    Remove(remove::RemoveArgs),
    /// Find games by player, event, opening, date, result, handicap or length.
    Search(search::SearchArgs),
    /// Players with their games, results as sente and as gote, first and last date and
    /// openings; `players NAME --vs OTHER`: the head-to-head record and its games.
    Players(players::PlayersArgs),
    /// Games that reach a position, newest first, with the ply where they reach it.
    Position(position::PositionArgs),
    /// Moves played from a position: how often, how they scored, when last played.
    Tree(position::TreeArgs),
    /// Games, results and score per recognised opening, strategy and castle, or pairing.
    Openings(openings::OpeningsArgs),
    /// Merge the position index's segments into one (quicker queries) and tidy the file.
    Optimize(optimize::OptimizeArgs),
    /// Serve the explorer page (a board to click through the database) and the JSON API.
    Serve(serve::ServeArgs),
    /// Print a stored game in any format, or its board at a ply.
    Show(show::ShowArgs),
    /// Count what the database holds.
    Stats(stats::StatsArgs),
    /// Full-text search over comments, openings, events, titles, names and headers.
    Text(text::TextArgs),
    /// Bring a database made by an older kifudex up to date: its schema, its recognised
    /// openings, its position and text indexes (commands that only read never change it).
    Upgrade(upgrade::UpgradeArgs),
}

/// Parses the command line, runs the command and maps failures to exit status 1
/// (clap itself exits with 2 on bad usage).
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let moves_apart = e.kind() == clap::error::ErrorKind::UnknownArgument
                && std::env::args().any(|a| a == "moves");
            let _ = e.print();
            if moves_apart {
                eprintln!("hint: quote the position as one argument: 'startpos moves 7g7f 3c3d'");
            }
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    // The database folder a command writes into, for a full disk's message.
    let writes_db = matches!(
        cli.command,
        Command::Import(_)
            | Command::Reindex(_)
            | Command::Remove(_)
            | Command::Optimize(_)
            | Command::Upgrade(_)
            | Command::Check(_)
    )
    .then(|| cli.db.clone());
    let result = match cli.command {
        Command::Check(args) => check::run(&cli.db, &args),
        Command::Convert(args) => convert::run(&args),
        Command::Export(args) => export::run_export(&cli.db, &args),
        Command::Parquet(args) => export::run_parquet(&args),
        Command::Book(args) => export::run_book(&cli.db, &args),
        Command::Hash(args) => export::run_hash(&args),
        Command::Parse(args) => parse::run(&args),
        Command::Perft(args) => perft::run(&args).map(|()| true),
        Command::Import(args) => import::run(&cli.db, &args),
        Command::Find(args) => find::run(&cli.db, &args),
        Command::Reindex(args) => reindex::run(&cli.db, &args),
        Command::Remove(args) => remove::run(&cli.db, &args),
        Command::Search(args) => search::run(&cli.db, &args),
        Command::Players(args) => players::run(&cli.db, &args),
        Command::Position(args) => position::run_position(&cli.db, &args),
        Command::Tree(args) => position::run_tree(&cli.db, &args),
        Command::Openings(args) => openings::run(&cli.db, &args),
        Command::Optimize(args) => optimize::run(&cli.db, &args),
        Command::Serve(args) => serve::run(&cli.db, &args),
        Command::Show(args) => show::run(&cli.db, &args),
        Command::Stats(args) => stats::run(&cli.db, &args),
        Command::Text(args) => text::run(&cli.db, &args),
        Command::Upgrade(args) => upgrade::run(&cli.db, &args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            let message = format!("{e:#}");
            if disk_full(&e, &message) {
                match &writes_db {
                    Some(db) => eprintln!(
                        "kifudex: the disk is full: no space left to write the database in {} \
                         (what was committed is kept; free some space and run the command again)",
                        output::terminal_safe(&db.display().to_string())
                    ),
                    None => eprintln!("kifudex: the disk is full"),
                }
            }
            eprintln!(
                "kifudex: {}",
                bounds::cut_echo(&output::terminal_safe(&message))
            );
            // A query that cannot be read: the query again, the part at fault underlined.
            let find = e.downcast_ref::<kifudex::find::FindError>();
            if let Some(p) = find.and_then(|f| f.pointer()) {
                eprint!("{p}");
            }
            // A question asked wrongly is bad usage, as clap's own errors are.
            match (e.downcast_ref::<kifudex::query::QueryError>(), find) {
                (
                    Some(
                        kifudex::query::QueryError::BadArgument(_)
                        | kifudex::query::QueryError::Filter(_),
                    ),
                    _,
                )
                | (
                    _,
                    Some(
                        kifudex::find::FindError::Parse { .. }
                        | kifudex::find::FindError::Query(
                            kifudex::query::QueryError::BadArgument(_)
                            | kifudex::query::QueryError::Filter(_),
                        ),
                    ),
                ) => ExitCode::from(2),
                _ => ExitCode::from(1),
            }
        }
    }
}

/// Whether the error is the disk's being full, wherever it was met: an I/O error of a full
/// disk in the chain, SQLite's "database or disk is full", or tantivy's account of one (which
/// reaches us as text).
fn disk_full(e: &anyhow::Error, message: &str) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::StorageFull)
    }) || [
        "No space left on device",
        "database or disk is full",
        "StorageFull",
    ]
    .iter()
    .any(|m| message.contains(m))
}

/// Opens the database to read it, never writing; says on stderr what of it is behind its
/// games (`positions`: for a command that asks the position index).
pub fn open_for_reading(
    db: &std::path::Path,
    positions: bool,
) -> anyhow::Result<kifudex::store::Store> {
    let store = kifudex::store::Store::open_read_only(db)?;
    for note in store.staleness()?.notes(positions) {
        eprintln!("kifudex: note: {note}");
    }
    Ok(store)
}

/// Opens the database to write it: migrations, then what is derived from the games brought
/// up to date ([`kifudex::store::Store::upgrade`], with a bar), under the import lock the
/// caller then holds.
pub fn open_for_writing(
    db: &std::path::Path,
) -> anyhow::Result<(kifudex::store::Store, kifudex::store::ImportLock)> {
    let mut store = kifudex::store::Store::open(db)?;
    let lock = store.lock_import()?;
    store.upgrade_locked(&output::Bar::new())?;
    Ok((store, lock))
}

/// Brings the text index up to date with the database (a command that writes), saying
/// what it rebuilt.
pub fn sync_text(
    store: &kifudex::store::Store,
    bar: &output::Bar,
) -> anyhow::Result<kifudex::text::SyncReport> {
    use kifudex::progress::Progress;
    bar.stage("bringing the text index up to date", None, "");
    let (index, report) = kifudex::query::open_text(store)?;
    index.finish()?;
    bar.finish();
    if let Some(n) = &report.notice {
        eprintln!("kifudex: {n}");
    }
    Ok(report)
}

/// The bytes of a file named on the command line; `-` is standard input.
fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}
