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
    if args.board || args.ply.is_some() {
        let plies = rec.main.moves.len();
        let ply = args.ply.unwrap_or(plies);
        if ply > plies {
            bail!("game {} has {plies} moves: there is no ply {ply}", args.id);
        }
        let mut pos = rec.start.clone();
        // The last move in Japanese with its square (☖３四銀, not 同), from the position it
        // was played in.
        let mut last_japanese = String::new();
        for (i, node) in rec.main.moves[..ply].iter().enumerate() {
            if i + 1 == ply {
                last_japanese = kifudex::notation::movetext::japanese(&pos, node.mv, None);
            }
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
            writeln!(out, "# last move: {} ({})", last_japanese, mv.mv.usi())?;
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
