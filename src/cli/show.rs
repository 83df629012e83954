//! `kifudex show`: a stored game in any format, or the board at a ply.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};
use clap::Args;
use kifudex::notation::csa::CsaVersion;
use kifudex::notation::kif::board_diagram;
use kifudex::store::Store;

use kifudex::notation::write::Target;

use super::convert::encode;
use super::output::Table;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The game's id (as search and position print it).
    id: i64,
    /// The format to print the game in (default: KIF in UTF-8).
    #[arg(long, default_value = "kifu")]
    to: Target,
    /// Print the board after this many moves of the main line (0: the start).
    #[arg(long, value_name = "N", conflicts_with = "to")]
    ply: Option<usize>,
    /// Print the board as a KIF board diagram (after the last move unless --ply says).
    #[arg(long)]
    board: bool,
    /// List the opening, strategies and castles recognised from the moves, with the ply
    /// each first held at, instead of the game.
    #[arg(long, conflicts_with_all = ["board", "ply"])]
    openings: bool,
    /// With --openings: one JSON object.
    #[arg(long, requires = "openings")]
    json: bool,
}

pub fn run(db: &Path, args: &ShowArgs) -> Result<bool> {
    let store = Store::open_read_only(db)?;
    let Some(game) = store.game(args.id)? else {
        bail!("no game with id {} in {}", args.id, db.display());
    };
    let rec = &game.record;
    if game.incomplete {
        eprintln!(
            "kifudex: game {} is incomplete: its record stops at move {}, which could not be applied (see the import errors of {})",
            game.id,
            rec.main.moves.len() + 1,
            game.file
        );
    }
    let mut out = std::io::stdout().lock();
    if args.openings {
        let (label, items) = store.recognised(args.id)?;
        if args.json {
            let obj = serde_json::json!({"id": game.id, "opening": label, "items": items});
            writeln!(out, "{obj}")?;
            return Ok(true);
        }
        let header = rec
            .opening()
            .map(|o| format!(" (header: {o})"))
            .unwrap_or_default();
        writeln!(
            out,
            "# game {}: recognised opening {}{header}",
            game.id,
            label.as_deref().unwrap_or("-")
        )?;
        let mut table = Table::new(vec!["side", "kind", "name", "ply"]);
        for i in items {
            table
                .rows
                .push(vec![i.side.to_string(), i.kind, i.name, i.ply.to_string()]);
        }
        table.write(&mut out)?;
        return Ok(true);
    }
    if args.board || args.ply.is_some() {
        let plies = rec.main.moves.len();
        let ply = args.ply.unwrap_or(plies);
        if ply > plies {
            bail!("game {} has {plies} moves: there is no ply {ply}", args.id);
        }
        let mut pos = rec.start.clone();
        for node in &rec.main.moves[..ply] {
            pos.play(node.mv)
                .map_err(|e| anyhow::anyhow!("game {}: move {}: {e}", args.id, node.mv.usi()))?;
        }
        let who = |s: &Option<String>| s.clone().unwrap_or_else(|| "?".into());
        writeln!(
            out,
            "# game {}: {} vs {}, after move {ply} of {plies}",
            game.id,
            who(&game.sente),
            who(&game.gote)
        )?;
        if ply > 0 {
            let mv = &rec.main.moves[ply - 1];
            writeln!(out, "# last move: {}", mv.mv.usi())?;
        }
        write!(out, "{}", board_diagram(&pos))?;
        writeln!(out, "# sfen {}", pos.to_sfen())?;
        return Ok(true);
    }
    out.write_all(&encode(
        std::slice::from_ref(rec),
        args.to,
        CsaVersion::V2_2,
    ))?;
    Ok(true)
}
