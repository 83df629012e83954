//! `kifudex show`: a stored game in any format, or the board at a ply.

use std::io::Write;
use std::path::Path;

use super::output::terminal_safe;
use anyhow::{Result, bail};
use clap::Args;
use kifudex::notation::csa::CsaVersion;
use kifudex::notation::kif::{board_diagram_with, is_handicap_game};
use kifudex::notation::movelist::{Notation, write_move_list};

use kifudex::notation::write::Target;

use super::convert::encode;
use super::output::Table;

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("listing").args(["openings", "evals", "sources"]).multiple(false))]
#[command(group = clap::ArgGroup::new("picture").args(["svg", "png"]).multiple(false))]
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
    /// Print the main line as a numbered move list in this notation: japanese, hodges,
    /// hosking, kitao-kawasaki, iroha, usi or csa.
    #[arg(long, value_name = "NOTATION", value_parser = notation, conflicts_with_all = ["board", "ply", "svg", "png"])]
    notation: Option<Notation>,
    /// List the opening (戦型) recognised from the moves with the reason it was chosen, and
    /// each side's strategies and castles with the ply each first held at and the move that
    /// completed it, instead of the game.
    #[arg(long, conflicts_with_all = ["board", "ply", "svg", "png"])]
    openings: bool,
    /// List the moves with the evaluation of the position after each (the record's engine
    /// comments, or the last whole analysis by `kifudex analyse`), its depth, source and the
    /// engine's preferred move, instead of the game.
    #[arg(long, conflicts_with_all = ["board", "ply", "openings", "notation", "svg", "png"])]
    evals: bool,
    /// List every source of the game (each file and place that holds it, the game's own
    /// first) with the facts the game took from each, instead of the game.
    #[arg(long, conflicts_with_all = ["board", "ply", "notation", "openings", "evals", "svg", "png"])]
    sources: bool,
    /// Draw the board (after the last move unless --ply says) as an SVG picture: the pieces
    /// in kanji, both hands, the coordinates, the last move marked and the players' names.
    #[arg(long, conflicts_with_all = ["board", "to"])]
    svg: bool,
    /// Draw the same picture as a PNG image (1120×1152 pixels), its kanji in a Japanese font
    /// found on this machine (Mincho first) or the one --font names.
    #[arg(long, conflicts_with_all = ["board", "to"])]
    png: bool,
    /// With --png: draw with this TrueType or OpenType font file (.ttf, .otf, .ttc).
    #[arg(long, value_name = "FILE", requires = "png", conflicts_with = "svg")]
    font: Option<std::path::PathBuf>,
    /// With --svg or --png: write the picture to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE", requires = "picture")]
    output: Option<std::path::PathBuf>,
    /// With --openings or --evals: one JSON object; with --sources: one JSON object per
    /// source.
    #[arg(long, requires = "listing")]
    json: bool,
}

fn notation(s: &str) -> Result<Notation, String> {
    Notation::ALL
        .into_iter()
        .find(|n| n.name() == s)
        .ok_or_else(|| {
            let names: Vec<&str> = Notation::ALL.iter().map(|n| n.name()).collect();
            format!("'{s}' is no notation kifudex writes: {}", names.join(", "))
        })
}

pub fn run(db: &Path, args: &ShowArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    if args.sources {
        return show_sources(&store, db, args.id, args.json);
    }
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
    if args.evals {
        return super::evals::show_evals(&store, &game, args.json, &mut out);
    }
    if args.openings {
        return show_openings(&mut out, game.id, rec, args.json);
    }
    if let Some(n) = args.notation {
        out.write_all(write_move_list(rec, n, false).as_bytes())?;
        return Ok(true);
    }
    if args.svg {
        let svg = kifudex::picture::game_svg(&game, args.ply)?;
        match &args.output {
            Some(path) => std::fs::write(path, svg)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
            None => out.write_all(svg.as_bytes())?,
        }
        return Ok(true);
    }
    if args.png {
        // A PNG on a terminal would only scramble it.
        if args.output.is_none() && std::io::IsTerminal::is_terminal(&out) {
            bail!(
                "show --png writes a binary image: give -o FILE, or send standard output to a file or a pipe"
            );
        }
        let drawing = kifudex::picture::game_drawing(&game, args.ply)?;
        let font = match &args.font {
            Some(path) => kifudex::picture::Font::open(path)?,
            None => kifudex::picture::Font::find()?,
        };
        let png = drawing.png(&font)?;
        match &args.output {
            Some(path) => std::fs::write(path, png)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
            None => out.write_all(&png)?,
        }
        return Ok(true);
    }
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
            terminal_safe(&who(&game.sente)),
            terminal_safe(&who(&game.gote))
        )?;
        if ply > 0 {
            let mv = &rec.main.moves[ply - 1];
            writeln!(out, "# last move: {} ({})", last_japanese, mv.mv.usi())?;
        }
        write!(out, "{}", board_diagram_with(&pos, is_handicap_game(rec)))?;
        writeln!(out, "# sfen {}", pos.to_sfen())?;
        return Ok(true);
    }
    let bytes = encode(std::slice::from_ref(rec), args.to, CsaVersion::V2_2);
    // On a terminal, what a record holds cannot drive it: its control characters are shown
    // escaped, line by line (a file written through a pipe keeps them).
    if std::io::IsTerminal::is_terminal(&out) {
        for line in String::from_utf8_lossy(&bytes).split_inclusive('\n') {
            let (body, end) = match line.strip_suffix('\n') {
                Some(b) => {
                    let body = b.strip_suffix('\r').unwrap_or(b);
                    (body, &line[body.len()..])
                }
                None => (line, ""),
            };
            write!(out, "{}{end}", terminal_safe(body))?;
        }
    } else {
        out.write_all(&bytes)?;
    }
    Ok(true)
}

/// `show --sources`: every source of the stored game, its own first.
fn show_sources(store: &kifudex::store::Store, db: &Path, id: i64, json: bool) -> Result<bool> {
    let Some(sources) = store.game_sources(id)? else {
        bail!("no game with id {id} in {}", db.display());
    };
    let mut out = std::io::stdout().lock();
    if json {
        for s in &sources {
            writeln!(out, "{}", serde_json::to_string(s)?)?;
        }
        return Ok(true);
    }
    let mut table = Table::new(vec!["#", "file", "game", "format", "source", "took"]);
    table.path_column = Some(1);
    for s in &sources {
        let role = match (s.own, s.differs, s.plies) {
            (true, _, _) => "its own".to_string(),
            (false, _, Some(p)) => format!("its first {p} moves, merged by hand"),
            (false, true, None) if s.by_hand => "other facts, merged by hand".into(),
            (false, true, None) => "other facts".into(),
            (false, false, None) => "the same facts".into(),
        };
        table.rows.push(vec![
            s.number.to_string(),
            terminal_safe(&s.file).into_owned(),
            (s.game_index + 1).to_string(),
            s.format.clone().unwrap_or_default(),
            role,
            s.fields.join(", "),
        ]);
    }
    table.write(&mut out)?;
    writeln!(
        out,
        "game {id}: {}",
        super::output::count(sources.len(), "source")
    )?;
    Ok(true)
}

/// `show --openings`: what the moves of the stored game are recognised as, computed again
/// from them (the definitions of this program, whatever the database stored).
fn show_openings(
    out: &mut impl Write,
    id: i64,
    rec: &kifudex::notation::Record,
    json: bool,
) -> Result<bool> {
    use kifudex::shogi::Color;
    let r = kifudex::classify::recognise_record(rec);
    let japanese = kifudex::game_json::completing_moves(rec, &r);
    let side = |c: Color| if c == Color::Black { "sente" } else { "gote" };
    if json {
        let items: Vec<serde_json::Value> = r
            .items
            .iter()
            .map(|i| {
                serde_json::json!({
                    "side": side(i.side), "kind": i.kind.code(), "name": i.name,
                    "ply": i.ply, "move": i.mv.usi(), "move_japanese": japanese.get(&i.ply),
                })
            })
            .collect();
        let obj = serde_json::json!({
            "id": id,
            "opening": r.opening,
            "reason": r.reason.map(|x| x.to_string()),
            "header": rec.opening(),
            "items": items,
        });
        writeln!(out, "{obj}")?;
        return Ok(true);
    }
    let header = rec
        .opening()
        .map(|o| format!(" (header: {})", terminal_safe(o)))
        .unwrap_or_default();
    writeln!(out, "# game {id}: {}{header}", r.opening.unwrap_or("-"))?;
    if let Some(reason) = r.reason {
        writeln!(out, "# {reason}")?;
    }
    let mut table = Table::new(vec!["side", "kind", "name", "ply", "move"]);
    for i in &r.items {
        let mv = match japanese.get(&i.ply) {
            Some(j) => format!("{j} ({})", i.mv.usi()),
            None => i.mv.usi(),
        };
        table.rows.push(vec![
            side(i.side).to_string(),
            i.kind.code().to_string(),
            i.name.to_string(),
            i.ply.to_string(),
            mv,
        ]);
    }
    table.write(out)?;
    Ok(true)
}
